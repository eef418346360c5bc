//! The external control plane: etcd and the real kube-apiserver started from binaries
//! (Go's envtest's `ControlPlane`), on free loopback ports, with their data, logs and
//! credentials in a temporary directory removed when they stop.

use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::EnvtestError;
use super::pki::Pki;
use crate::config::{Auth, Config};
use crate::transport::{Outgoing, Transport};

/// Go's envtest's variable naming the directory of `kube-apiserver` and `etcd`.
pub const KUBEBUILDER_ASSETS: &str = "KUBEBUILDER_ASSETS";
/// Go's envtest's variable naming the kube-apiserver binary (over `KUBEBUILDER_ASSETS`).
pub const TEST_ASSET_KUBE_APISERVER: &str = "TEST_ASSET_KUBE_APISERVER";
/// Go's envtest's variable naming the etcd binary (over `KUBEBUILDER_ASSETS`).
pub const TEST_ASSET_ETCD: &str = "TEST_ASSET_ETCD";

/// The binaries of an external control plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binaries {
    /// The `kube-apiserver` binary.
    pub kube_apiserver: PathBuf,
    /// The `etcd` binary.
    pub etcd: PathBuf,
}

impl Binaries {
    /// `kube-apiserver` and `etcd` in `dir` (the layout of `KUBEBUILDER_ASSETS`, as
    /// `setup-envtest` installs it).
    pub fn in_dir(dir: impl AsRef<Path>) -> Self {
        let dir = dir.as_ref();
        Binaries {
            kube_apiserver: dir.join("kube-apiserver"),
            etcd: dir.join("etcd"),
        }
    }

    /// The binaries Go's envtest would use: `TEST_ASSET_KUBE_APISERVER` and
    /// `TEST_ASSET_ETCD` where set, otherwise in the directory `KUBEBUILDER_ASSETS`
    /// names. An error when neither says where one of them is.
    pub fn from_env() -> Result<Self, EnvtestError> {
        let assets = std::env::var_os(KUBEBUILDER_ASSETS).map(PathBuf::from);
        let find = |variable: &'static str, name: &'static str| {
            std::env::var_os(variable)
                .map(PathBuf::from)
                .or_else(|| assets.as_ref().map(|dir| dir.join(name)))
                .ok_or(EnvtestError::NoBinary { name, variable })
        };
        Ok(Binaries {
            kube_apiserver: find(TEST_ASSET_KUBE_APISERVER, "kube-apiserver")?,
            etcd: find(TEST_ASSET_ETCD, "etcd")?,
        })
    }
}

/// A running etcd and kube-apiserver.
#[derive(Debug)]
pub(super) struct ControlPlane {
    etcd: Option<Child>,
    kube_apiserver: Option<Child>,
    dir: PathBuf,
    /// `https://127.0.0.1:PORT`.
    pub(super) url: String,
    pub(super) ca_pem: String,
    pub(super) token: String,
}

/// A port nobody listens on now (Go's envtest picks its ports the same way).
fn free_port() -> Result<u16, EnvtestError> {
    let listener =
        TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|source| EnvtestError::Io {
            path: PathBuf::from("127.0.0.1:0"),
            source,
        })?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|source| EnvtestError::Io {
            path: PathBuf::from("127.0.0.1:0"),
            source,
        })
}

/// A directory of our own under the system's temporary directory.
fn temp_dir() -> Result<PathBuf, EnvtestError> {
    use std::os::unix::fs::DirBuilderExt;
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let base = std::env::temp_dir();
    let pid = std::process::id();
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("envtest-{pid}-{n}"));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(EnvtestError::Io { path: dir, source }),
        }
    }
}

/// The end of a log, for errors.
fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let start = text.len().saturating_sub(3000);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    text[start..].to_owned()
}

fn spawn(program: &Path, args: &[String], log: &Path) -> Result<Child, EnvtestError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EnvtestError::Io { path, source }
    };
    let out = std::fs::File::create(log).map_err(io(log))?;
    let err = out.try_clone().map_err(io(log))?;
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(io(program))
}

/// kube-apiserver's flags: those of Go's envtest (`ServiceAccount` admission off, as no
/// controller creates the `default` service accounts; RBAC; a Service IP range), with
/// the serving certificate and static token made for this start.
fn kube_apiserver_args(etcd: &str, port: u16, pki: &Pki, dir: &Path) -> Vec<String> {
    let path = |p: &Path| p.display().to_string();
    vec![
        format!("--etcd-servers={etcd}"),
        "--bind-address=127.0.0.1".to_owned(),
        "--advertise-address=127.0.0.1".to_owned(),
        // kube-apiserver 1.37 refuses a loopback advertise address with its default
        // (lease) endpoint reconciler, whose Endpoints could not hold it (Go's
        // ValidateEndpointIP); 1.36 takes the flag too. Without a reconciler, no
        // `kubernetes` Service endpoints.
        "--endpoint-reconciler-type=none".to_owned(),
        format!("--secure-port={port}"),
        format!("--cert-dir={}", path(&dir.join("certs"))),
        format!("--tls-cert-file={}", path(&pki.cert_file)),
        format!("--tls-private-key-file={}", path(&pki.key_file)),
        format!("--token-auth-file={}", path(&pki.token_file)),
        "--authorization-mode=RBAC".to_owned(),
        "--disable-admission-plugins=ServiceAccount".to_owned(),
        "--allow-privileged=true".to_owned(),
        "--service-cluster-ip-range=10.0.0.0/24".to_owned(),
        format!("--service-account-issuer=https://127.0.0.1:{port}/"),
        format!(
            "--service-account-key-file={}",
            path(&pki.service_account_public_key_file)
        ),
        format!(
            "--service-account-signing-key-file={}",
            path(&pki.service_account_key_file)
        ),
    ]
}

fn etcd_args(client: &str, peer: &str, dir: &Path) -> Vec<String> {
    vec![
        "--name=envtest".to_owned(),
        format!("--data-dir={}", dir.join("etcd").display()),
        format!("--listen-client-urls={client}"),
        format!("--advertise-client-urls={client}"),
        format!("--listen-peer-urls={peer}"),
        format!("--initial-advertise-peer-urls={peer}"),
        format!("--initial-cluster=envtest={peer}"),
        "--log-level=warn".to_owned(),
        "--logger=zap".to_owned(),
    ]
}

impl ControlPlane {
    /// Starts etcd, then kube-apiserver on it, and waits until kube-apiserver answers
    /// `/readyz` and has made the `default` namespace, for at most `timeout`.
    pub(super) async fn start(
        binaries: &Binaries,
        timeout: Duration,
        runtime_config: Option<&str>,
    ) -> Result<ControlPlane, EnvtestError> {
        let dir = temp_dir()?;
        // From here on, dropping `plane` stops what started and removes `dir`.
        let mut plane = ControlPlane {
            etcd: None,
            kube_apiserver: None,
            dir,
            url: String::new(),
            ca_pem: String::new(),
            token: String::new(),
        };
        let dir = plane.dir.clone();
        let pki = Pki::create(&dir)?;
        let etcd_url = format!("http://127.0.0.1:{}", free_port()?);
        let peer_url = format!("http://127.0.0.1:{}", free_port()?);
        plane.etcd = Some(spawn(
            &binaries.etcd,
            &etcd_args(&etcd_url, &peer_url, &dir),
            &dir.join("etcd.log"),
        )?);
        let port = free_port()?;
        let mut args = kube_apiserver_args(&etcd_url, port, &pki, &dir);
        if let Some(value) = runtime_config {
            args.push(format!("--runtime-config={value}"));
        }
        plane.kube_apiserver = Some(spawn(
            &binaries.kube_apiserver,
            &args,
            &dir.join("kube-apiserver.log"),
        )?);
        plane.url = format!("https://127.0.0.1:{port}");
        plane.ca_pem = pki.ca_pem;
        plane.token = pki.token;
        plane.wait_ready(timeout).await?;
        Ok(plane)
    }

    /// The configuration of a client: the CA and the administrator's token.
    pub(super) fn config(&self) -> Config {
        let mut config = Config::new(&self.url);
        config.tls.ca_data = Some(self.ca_pem.clone().into_bytes());
        config.auth = Auth::BearerToken(self.token.clone());
        config
    }

    /// Polls `/readyz`, then the `default` namespace (kube-apiserver makes the system
    /// namespaces right after it starts serving; tests write there at once).
    async fn wait_ready(&mut self, timeout: Duration) -> Result<(), EnvtestError> {
        let mut config = self.config();
        config.timeout = Some(Duration::from_secs(5));
        let transport = Transport::new(&config)?;
        let deadline = Instant::now() + timeout;
        for path in ["/readyz", "/api/v1/namespaces/default"] {
            loop {
                let answer = transport
                    .fetch(Outgoing {
                        method: http::Method::GET,
                        path,
                        accept: "application/json",
                        body: None,
                        streaming: false,
                    })
                    .await;
                let last = match answer {
                    Ok(answer) if answer.code == 200 => break,
                    Ok(answer) => format!(
                        "{path}: {} {}",
                        answer.code,
                        String::from_utf8_lossy(&answer.body)
                    ),
                    Err(e) => format!("{path}: {e}"),
                };
                self.check_running()?;
                if Instant::now() > deadline {
                    return Err(EnvtestError::NotReady {
                        timeout,
                        last,
                        log: tail(&self.dir.join("kube-apiserver.log")),
                    });
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        Ok(())
    }

    /// An error naming the process that exited, with the end of its log.
    fn check_running(&mut self) -> Result<(), EnvtestError> {
        for (name, child) in [
            ("etcd", &mut self.etcd),
            ("kube-apiserver", &mut self.kube_apiserver),
        ] {
            if let Some(process) = child.as_mut()
                && let Ok(Some(status)) = process.try_wait()
            {
                *child = None;
                return Err(EnvtestError::Exited {
                    name,
                    status: status.to_string(),
                    log: tail(&self.dir.join(format!("{name}.log"))),
                });
            }
        }
        Ok(())
    }

    /// Stops kube-apiserver, then etcd, and removes the directory. Killed outright: a
    /// test's control plane has nothing to hand over, and its data is thrown away.
    pub(super) fn stop(&mut self) {
        for child in [self.kube_apiserver.take(), self.etcd.take()]
            .into_iter()
            .flatten()
        {
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Drop for ControlPlane {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binaries_in_a_directory() {
        let b = Binaries::in_dir("/opt/assets");
        assert_eq!(b.kube_apiserver, Path::new("/opt/assets/kube-apiserver"));
        assert_eq!(b.etcd, Path::new("/opt/assets/etcd"));
    }

    #[test]
    fn kube_apiserver_gets_envtest_flags() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let pki = Pki::create(dir.path())?;
        let args = kube_apiserver_args("http://127.0.0.1:2379", 6443, &pki, dir.path());
        for flag in [
            "--etcd-servers=http://127.0.0.1:2379",
            "--secure-port=6443",
            "--bind-address=127.0.0.1",
            "--authorization-mode=RBAC",
            "--disable-admission-plugins=ServiceAccount",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--service-account-issuer=https://127.0.0.1:6443/",
        ] {
            assert!(args.iter().any(|a| a == flag), "no {flag}: {args:?}");
        }
        for prefix in [
            "--tls-cert-file=",
            "--tls-private-key-file=",
            "--token-auth-file=",
            "--cert-dir=",
            "--service-account-key-file=",
            "--service-account-signing-key-file=",
        ] {
            assert!(
                args.iter().any(|a| a.starts_with(prefix)),
                "no {prefix}: {args:?}"
            );
        }
        Ok(())
    }

    #[tokio::test]
    async fn a_missing_binary_is_an_error_and_leaves_no_directory() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let binaries = Binaries::in_dir(dir.path());
        let err = ControlPlane::start(&binaries, Duration::from_secs(5), None)
            .await
            .map(|_| ())
            .unwrap_err();
        assert!(err.to_string().contains("etcd"), "{err}");
        let pid = std::process::id();
        let leftovers = std::fs::read_dir(std::env::temp_dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("envtest-{pid}-"))
            })
            .count();
        assert_eq!(leftovers, 0);
    }
}
