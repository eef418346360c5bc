//! `kapi serve`: the built-in API served over HTTPS by the `apiserver` crate, on in-memory
//! storage by default, until SIGINT or SIGTERM.

mod security;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use apiserver::admission::Chain;
use apiserver::admission::plugins::{self, PluginSelection};
use apiserver::registry::core::service::ServiceNetwork;
use apiserver::resource_config::ResourceConfig;
use apiserver::server::Config;
use apiserver::storage::{MemoryStorage, RedbStorage, Storage};

use super::{CommandError, serve_authorization};
use crate::cli::ServeArgs;
use crate::scheme::{KUBE_APISERVER_SCHEME_NAME, scheme_named};

/// The names of the cluster, user and context in the kubeconfig written.
const KUBECONFIG_NAME: &str = "kapi";

/// The database file `--data-dir` keeps, inside the directory.
const DATA_FILE: &str = "kapi.redb";

/// `--kubernetes-version`: `1.37`, `v1.37` or `v1.37.2` must name the release this kapi is
/// built with ([`k8s_types::RELEASE`]); a release is chosen at build time, with its cargo
/// feature.
fn check_release(asked: &str) -> Result<(), String> {
    let trimmed = asked.trim().trim_start_matches('v');
    let mut parts = trimmed.split('.');
    let release = match (parts.next(), parts.next()) {
        (Some(major), Some(minor))
            if !major.is_empty()
                && !minor.is_empty()
                && major
                    .chars()
                    .chain(minor.chars())
                    .all(|c| c.is_ascii_digit()) =>
        {
            format!("{major}.{minor}")
        }
        _ => {
            return Err(format!(
                "--kubernetes-version: `{asked}` is not a Kubernetes version such as {} or v{}.0",
                k8s_types::RELEASE,
                k8s_types::RELEASE
            ));
        }
    };
    if release == k8s_types::RELEASE {
        return Ok(());
    }
    Err(format!(
        "--kubernetes-version: this kapi serves the Kubernetes {} API, not {release}: a release is chosen when kapi is built, with its cargo feature (`cargo build -p kapi --no-default-features --features v{}`)",
        k8s_types::RELEASE,
        release.replace('.', "_")
    ))
}

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    init_logging(args.verbose);
    if let Some(asked) = &args.kubernetes_version {
        check_release(asked)?;
    }
    if let Some(selection) = &args.controllers {
        // A controller named that is not implemented fails before the server starts.
        selection
            .controllers()
            .map_err(|e| format!("--controllers: {e}"))?;
    }
    let admission_plugins = admission_plugins(args)?;
    if args.nodes > controller_manager::nodes::MAX_NODES {
        return Err(format!(
            "--nodes: at most {} simulated Nodes (their Pod CIDRs are /24s of 10.64.0.0/10)",
            controller_manager::nodes::MAX_NODES
        )
        .into());
    }
    if !(args.simulated_clock_speed.is_finite() && args.simulated_clock_speed > 0.0) {
        return Err(format!(
            "--simulated-clock-speed: {} is not a positive number",
            args.simulated_clock_speed
        )
        .into());
    }
    // Process-wide in Go too (pkg/capabilities, set once from the flag).
    k8s_types::validation::set_allow_privileged(args.allow_privileged);
    // Named as kube-apiserver's, whose answers quote the name.
    let scheme = Arc::new(scheme_named(KUBE_APISERVER_SCHEME_NAME)?);
    let served = resource_config(args, &scheme)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let scheme_for_controllers = scheme.clone();
        let storage = open_storage(args).await?;
        let authorization =
            serve_authorization::authorization(&args.authorization_mode, &scheme, &storage).await?;
        let mut admission = Chain::new();
        for plugin in authorization.validating {
            admission = admission.with_validating(plugin);
        }
        let (config, security) = security::configure(
            &args.security,
            &args.listen,
            args.data_dir.as_deref(),
            scheme.clone(),
            storage.clone(),
            Config::new(scheme.clone(), storage)
                .resource_config(served)
                .deprecated_kinds(k8s_types::lifecycle::deprecated_kinds().collect())
                .authorizer(authorization.authorizer)
                .admission(admission)
                .admission_plugins(admission_plugins.clone())
                .connection_workers(connection_workers(args))
                .shutdown_delay(shutdown_delay(args)?)
                .service_network(service_network(args)?),
        )?;
        let server = match security.tls {
            Some(tls) => config.serve_tls(args.listen, tls).await?,
            None => config.serve(args.listen).await?,
        };
        let url = server.url();
        if let Some(path) = &args.kubeconfig {
            let client_url = security::client_url(&url, server.local_addr());
            write_kubeconfig(path, &client_url, &security.credentials)?;
        }
        let controllers = start_controllers(
            args,
            &admission_plugins,
            &security::client_url(&url, server.local_addr()),
            &security.credentials,
            scheme_for_controllers,
        )
        .await?;
        writeln!(
            out,
            "kapi serve: serving the Kubernetes {} API at {url}",
            k8s_types::RELEASE
        )?;
        if let Some(controllers) = &controllers {
            writeln!(
                out,
                "kapi serve: controllers running: {}",
                controllers.controllers().join(", ")
            )?;
        }
        if let Some(path) = &args.kubeconfig {
            writeln!(
                out,
                "kubeconfig: {} (kubectl --kubeconfig {})",
                path.display(),
                path.display()
            )?;
        }
        out.flush()?;
        wait_for_signal().await?;
        writeln!(out, "kapi serve: shutting down")?;
        out.flush()?;
        if let Some(controllers) = controllers {
            if let Err(e) = controllers.stop().await {
                eprintln!("kapi serve: stopping the controllers: {e}");
            }
        }
        server.shutdown().await;
        Ok::<(), CommandError>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// `--enable-admission-plugins` and `--disable-admission-plugins` applied to
/// kube-apiserver's defaults, checked as Go checks them.
fn admission_plugins(args: &ServeArgs) -> Result<PluginSelection, CommandError> {
    let names = |list: &[String]| -> Vec<String> {
        list.iter()
            .map(|n| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .collect()
    };
    let selection = PluginSelection::new()
        .enable(names(&args.enable_admission_plugins))
        .disable(names(&args.disable_admission_plugins));
    selection.validate()?;
    Ok(selection)
}

/// `--runtime-config` applied to what kube-apiserver serves by default; every use of
/// the flag adds its pairs, as Go's.
fn resource_config(
    args: &ServeArgs,
    scheme: &apimachinery::runtime::Scheme,
) -> Result<ResourceConfig, CommandError> {
    let mut served = ResourceConfig::kube_apiserver_default();
    if !args.runtime_config.is_empty() {
        served
            .apply_runtime_config(&args.runtime_config.join(","), scheme)
            .map_err(|e| format!("--runtime-config: {e}"))?;
    }
    Ok(served)
}

/// Starts the controllers `--controllers` selects, as the kubeconfig's admin (a member
/// of system:masters, as kube-controller-manager's own identity is authorized for all
/// it does).
async fn start_controllers(
    args: &ServeArgs,
    admission_plugins: &PluginSelection,
    url: &str,
    credentials: &security::Credentials,
    scheme: Arc<apimachinery::runtime::Scheme>,
) -> Result<Option<controller_manager::ControllerManager>, CommandError> {
    let mut selection = args.controllers.clone().unwrap_or_default();
    if admission_plugins.is_enabled(plugins::SERVICE_ACCOUNT) {
        // kube-controller-manager's part of what ServiceAccount admission relies on.
        selection = selection.or_enabled(controller_manager::names::SERVICE_ACCOUNT_CONTROLLER);
    }
    let none_selected = selection
        .controllers()
        .map_err(|e| format!("--controllers: {e}"))?
        .is_empty();
    if none_selected && args.nodes == 0 {
        return Ok(None);
    }
    let options = controller_manager::Options::new()
        .selection(selection)
        .nodes(args.nodes)
        .clock(controller_manager::nodes::Clock::scaled(
            args.simulated_clock_speed,
        ));
    let config = controller_runtime::config::Config::from_kubeconfig_str(
        &kubeconfig(url, credentials),
        Path::new("kapi serve"),
        None,
    )
    .map_err(|e| format!("--controllers: the client configuration: {e}"))?;
    let manager = controller_manager::ControllerManager::start(&config, scheme, &options)
        .await
        .map_err(|e| format!("--controllers: {e}"))?;
    Ok(Some(manager))
}

/// Logs to standard error: warnings and errors only by default (nothing when all is
/// well), more of the server's own with each `-v` (info; debug, with a line per request;
/// trace), or whatever `RUST_LOG` (`target=level,...`) says.
fn init_logging(verbose: u8) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let level = match verbose {
        0 => LevelFilter::WARN,
        1 => LevelFilter::INFO,
        2 => LevelFilter::DEBUG,
        _ => LevelFilter::TRACE,
    };
    let ours = Targets::new()
        .with_target("apiserver", level)
        .with_target("kapi", level)
        .with_target("controller_manager", level)
        .with_target("controller_runtime", level)
        .with_default(LevelFilter::WARN);
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => spec.parse::<Targets>().unwrap_or_else(|e| {
            eprintln!("kapi serve: RUST_LOG {spec:?} ignored: {e}");
            ours
        }),
        _ => ours,
    };
    // Only a second call in the same process (tests) finds one installed already.
    let _ = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(filter)
        .try_init();
}

/// `--shutdown-delay-duration`.
fn shutdown_delay(args: &ServeArgs) -> Result<std::time::Duration, CommandError> {
    let nanos = args.shutdown_delay_duration.as_nanos();
    u64::try_from(nanos)
        .map(std::time::Duration::from_nanos)
        .map_err(|_| {
            format!(
                "--shutdown-delay-duration {}: must not be negative",
                args.shutdown_delay_duration
            )
            .into()
        })
}

/// `--service-cluster-ip-range` and `--service-node-port-range`.
fn service_network(args: &ServeArgs) -> Result<ServiceNetwork, CommandError> {
    ServiceNetwork::new(
        &args.service_cluster_ip_range,
        &args.service_node_port_range,
    )
    .map_err(|e| format!("--service-cluster-ip-range, --service-node-port-range: {e}").into())
}

/// `--connection-workers`, by default one per CPU.
fn connection_workers(args: &ServeArgs) -> usize {
    args.connection_workers.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    })
}

/// The storage the flags ask for: etcd, an embedded database in a directory, or memory.
async fn open_storage(args: &ServeArgs) -> Result<Arc<dyn Storage>, CommandError> {
    if !args.etcd_servers.is_empty() {
        return etcd_storage(&args.etcd_servers).await;
    }
    if let Some(dir) = &args.data_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--data-dir {}: {e}", dir.display()))?;
        let file = dir.join(DATA_FILE);
        let db =
            RedbStorage::open(&file).map_err(|e| format!("--data-dir {}: {e}", file.display()))?;
        return Ok(Arc::new(db));
    }
    Ok(Arc::new(MemoryStorage::new()))
}

/// The etcd backend on `servers`.
async fn etcd_storage(servers: &[String]) -> Result<Arc<dyn Storage>, CommandError> {
    let etcd = apiserver::storage::EtcdStorage::connect(servers)
        .await
        .map_err(|e| format!("--etcd-servers {}: {e}", servers.join(",")))?;
    Ok(Arc::new(etcd))
}

/// A kubeconfig with one cluster, user and context named `kapi`, current: the server's
/// CA and the admin's client certificate (over plain HTTP, neither: see
/// `--insecure-http`).
fn kubeconfig(url: &str, credentials: &security::Credentials) -> String {
    use base64::Engine;
    let b64 = |pem: &str| base64::engine::general_purpose::STANDARD.encode(pem);
    let mut cluster = format!("    server: {url}\n");
    if let Some(ca) = &credentials.certificate_authority {
        cluster.push_str(&format!("    certificate-authority-data: {}\n", b64(ca)));
    }
    let mut user = String::new();
    if let Some((cert, key)) = &credentials.client_certificate {
        user.push_str(&format!(
            "    client-certificate-data: {}\n    client-key-data: {}\n",
            b64(cert),
            b64(key)
        ));
    }
    let user = if user.is_empty() {
        "  user: {}\n".to_owned()
    } else {
        format!("  user:\n{user}")
    };
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: {KUBECONFIG_NAME}\n  cluster:\n{cluster}users:\n- name: {KUBECONFIG_NAME}\n{user}contexts:\n- name: {KUBECONFIG_NAME}\n  context:\n    cluster: {KUBECONFIG_NAME}\n    user: {KUBECONFIG_NAME}\n    namespace: default\ncurrent-context: {KUBECONFIG_NAME}\npreferences: {{}}\n"
    )
}

/// Writes the kubeconfig readable by its owner only: it holds the admin's key.
fn write_kubeconfig(
    path: &Path,
    url: &str,
    credentials: &security::Credentials,
) -> Result<(), CommandError> {
    use std::os::unix::fs::OpenOptionsExt;
    let err = |e: std::io::Error| format!("cannot write kubeconfig {}: {e}", path.display());
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(err)?;
    file.write_all(kubeconfig(url, credentials).as_bytes())
        .map_err(|e| err(e).into())
}

async fn wait_for_signal() -> Result<(), CommandError> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r?,
        _ = term.recv() => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serve_args(flags: &[&str]) -> ServeArgs {
        use clap::Parser as _;
        let argv = ["kapi", "serve"].iter().chain(flags).copied();
        match crate::cli::Cli::try_parse_from(argv).unwrap().command {
            crate::cli::Command::Serve(args) => *args,
            other => panic!("not serve: {other:?}"),
        }
    }

    #[test]
    fn runtime_config_adds_to_kube_apiservers_defaults() {
        let scheme = scheme_named(KUBE_APISERVER_SCHEME_NAME).unwrap();
        let served = resource_config(&serve_args(&[]), &scheme).unwrap();
        assert!(served.resource_enabled("apps", "v1", "deployments"));
        assert!(!served.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
        // Repeated flags add their pairs, as Go's.
        let args = serve_args(&[
            "--runtime-config",
            "api/beta=true",
            "--runtime-config=apps/v1=false",
        ]);
        let served = resource_config(&args, &scheme).unwrap();
        assert!(served.resource_enabled("storage.k8s.io", "v1beta1", "csistoragecapacities"));
        assert!(!served.resource_enabled("apps", "v1", "deployments"));
        let err = resource_config(&serve_args(&["--runtime-config=api/all=false"]), &scheme)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "--runtime-config: invalid runtime-config with only api/all=false"
        );
    }

    #[test]
    fn kubernetes_version_must_be_the_release_built() {
        let release = k8s_types::RELEASE;
        for asked in [
            release.to_owned(),
            format!("v{release}"),
            format!("v{release}.2"),
        ] {
            assert_eq!(check_release(&asked), Ok(()), "{asked}");
        }
        let err = check_release("1.99").unwrap_err();
        assert!(
            err.contains(&format!("serves the Kubernetes {release} API, not 1.99"))
                && err.contains("--features v1_99"),
            "{err}"
        );
        assert!(
            check_release("latest")
                .unwrap_err()
                .contains("is not a Kubernetes version")
        );
        assert!(check_release("1.").is_err());
    }

    #[test]
    fn kubeconfig_names_cluster_user_and_context() {
        let k = kubeconfig("http://127.0.0.1:1234", &security::Credentials::default());
        assert!(k.contains("server: http://127.0.0.1:1234"));
        assert!(k.contains("current-context: kapi"));
        assert!(k.contains("  user: {}\n"));
    }

    #[test]
    fn kubeconfig_carries_the_ca_and_the_admin_credentials() {
        let credentials = security::Credentials {
            certificate_authority: Some("CA".into()),
            client_certificate: Some(("CERT".into(), "KEY".into())),
        };
        let k = kubeconfig("https://127.0.0.1:1234", &credentials);
        assert!(k.contains("    certificate-authority-data: Q0E=\n"), "{k}");
        assert!(
            k.contains(
                "  user:\n    client-certificate-data: Q0VSVA==\n    client-key-data: S0VZ\n"
            ),
            "{k}"
        );
    }
}
