//! `kapi serve`: the built-in API served over HTTP by the `apiserver` crate, on in-memory
//! storage by default, until SIGINT or SIGTERM.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use apiserver::admission::Chain;
use apiserver::server::Config;
use apiserver::storage::{MemoryStorage, RedbStorage, Storage};

use super::{CommandError, serve_authorization};
use crate::cli::ServeArgs;
use crate::scheme::scheme;

/// The names of the cluster, user and context in the kubeconfig written.
const KUBECONFIG_NAME: &str = "kapi";

/// The database file `--data-dir` keeps, inside the directory.
const DATA_FILE: &str = "kapi.redb";

pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = Arc::new(scheme()?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let storage = open_storage(args).await?;
        let authorization =
            serve_authorization::authorization(&args.authorization_mode, &scheme, &storage).await?;
        let mut admission = Chain::new();
        for plugin in authorization.validating {
            admission = admission.with_validating(plugin);
        }
        let server = Config::new(scheme, storage)
            .authorizer(authorization.authorizer)
            .admission(admission)
            .serve(args.listen)
            .await?;
        let url = server.url();
        if let Some(path) = &args.kubeconfig {
            write_kubeconfig(path, &url)?;
        }
        writeln!(out, "kapi serve: serving the Kubernetes 1.36 API at {url}")?;
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
        server.shutdown().await;
        Ok::<(), CommandError>(())
    })?;
    Ok(ExitCode::SUCCESS)
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
#[cfg(feature = "etcd")]
async fn etcd_storage(servers: &[String]) -> Result<Arc<dyn Storage>, CommandError> {
    let etcd = apiserver::storage::EtcdStorage::connect(servers)
        .await
        .map_err(|e| format!("--etcd-servers {}: {e}", servers.join(",")))?;
    Ok(Arc::new(etcd))
}

/// Without the `etcd` feature there is no etcd backend: say how to get one.
#[cfg(not(feature = "etcd"))]
async fn etcd_storage(servers: &[String]) -> Result<Arc<dyn Storage>, CommandError> {
    Err(format!(
        "--etcd-servers {}: this kapi was built without etcd support; build it with \
         `cargo build --release -p kapi --features etcd` (needs protoc: apt-get install \
         protobuf-compiler)",
        servers.join(",")
    )
    .into())
}

/// A kubeconfig with one cluster, user and context named `kapi`, current.
fn kubeconfig(url: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: {KUBECONFIG_NAME}\n  cluster:\n    server: {url}\nusers:\n- name: {KUBECONFIG_NAME}\n  user: {{}}\ncontexts:\n- name: {KUBECONFIG_NAME}\n  context:\n    cluster: {KUBECONFIG_NAME}\n    user: {KUBECONFIG_NAME}\n    namespace: default\ncurrent-context: {KUBECONFIG_NAME}\npreferences: {{}}\n"
    )
}

fn write_kubeconfig(path: &Path, url: &str) -> Result<(), CommandError> {
    std::fs::write(path, kubeconfig(url))
        .map_err(|e| format!("cannot write kubeconfig {}: {e}", path.display()).into())
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

    #[test]
    fn kubeconfig_names_cluster_user_and_context() {
        let k = kubeconfig("http://127.0.0.1:1234");
        assert!(k.contains("server: http://127.0.0.1:1234"));
        assert!(k.contains("current-context: kapi"));
    }
}
