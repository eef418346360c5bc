//! The server under test, pluggable: a [`Target`] (URL, CA, token) the clients use, and
//! a process the harness starts, kills (`kill -9`) and starts again on the same storage
//! and address. `kapi serve` and Go's kube-apiserver are both started with
//! kube-apiserver's flags for TLS and tokens, so the same harness runs against both.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::pki::Pki;
use crate::client::{Answer, Client, Target};
use crate::error::Error;

/// The range both servers allocate Services' cluster IPs from.
pub const SERVICE_CLUSTER_IP_RANGE: &str = "10.96.0.0/24";

/// Which API server runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Implementation {
    /// `kapi serve`, this repository's server (its binary).
    Kapi(PathBuf),
    /// Go's kube-apiserver (its binary), on etcd only.
    KubeApiserver(PathBuf),
}

impl Implementation {
    /// `kapi` or `kube-apiserver`.
    pub fn name(&self) -> &'static str {
        match self {
            Implementation::Kapi(_) => "kapi",
            Implementation::KubeApiserver(_) => "kube-apiserver",
        }
    }
}

/// Where a server keeps objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// etcd at this endpoint.
    Etcd(String),
    /// `kapi serve --data-dir` (redb) in this directory.
    Redb(PathBuf),
}

/// One server process and how clients reach it.
#[derive(Debug)]
pub struct Server {
    /// How clients reach it.
    pub target: Target,
    program: PathBuf,
    args: Vec<String>,
    /// The network namespace it runs in (`ip netns exec`), if not the harness's own.
    netns: Option<String>,
    log: PathBuf,
    child: Option<Child>,
    failed_starts: Vec<String>,
}

/// Why a start did not end ready.
enum NotStarted {
    /// The process exited.
    Exited(String),
    /// It did not answer in time (and was killed).
    NotReady(String),
}
use NotStarted::{Exited, NotReady};

impl Server {
    /// A server named `name` (not yet started) of `implementation` on `storage`,
    /// listening on `listen`, with its log in `dir`.
    pub fn new(
        name: &str,
        implementation: &Implementation,
        storage: &Storage,
        listen: SocketAddr,
        pki: &Pki,
        dir: &Path,
        netns: Option<String>,
    ) -> Result<Server, Error> {
        let path = |p: &Path| p.display().to_string();
        let (program, mut args) = match implementation {
            Implementation::Kapi(bin) => (
                bin.clone(),
                vec![
                    "serve".to_owned(),
                    format!("--listen={listen}"),
                    format!("--tls-cert-file={}", path(&pki.cert_file)),
                    format!("--tls-private-key-file={}", path(&pki.key_file)),
                    format!("--token-auth-file={}", path(&pki.token_file)),
                    // kube-apiserver's below: both allocate Service IPs from one range.
                    format!("--service-cluster-ip-range={SERVICE_CLUSTER_IP_RANGE}"),
                    // kube-apiserver runs alone, without kube-controller-manager's
                    // serviceaccount controller, which kapi serve otherwise runs.
                    "--controllers=-serviceaccount".to_owned(),
                ],
            ),
            Implementation::KubeApiserver(bin) => {
                let cert_dir = dir.join(format!("{name}-certs"));
                std::fs::create_dir_all(&cert_dir)
                    .map_err(Error::io(format!("create {}", cert_dir.display())))?;
                (
                    bin.clone(),
                    vec![
                        format!("--bind-address={}", listen.ip()),
                        format!("--advertise-address={}", listen.ip()),
                        // No `kubernetes` Service endpoints: kube-apiserver 1.37 refuses to
                        // start with a loopback advertise address and its default (lease)
                        // endpoint reconciler, whose Endpoints could not hold the address
                        // (Go's ValidateEndpointIP); 1.36 takes the flag too.
                        "--endpoint-reconciler-type=none".to_owned(),
                        // No identity Lease: kube-apiserver renews its own in kube-system
                        // every 10 s, writes no request made, which move etcd's revision
                        // between a client's requests (a bookmark then carries one no
                        // answer showed). kapi serve keeps no such lease; with it off, both
                        // servers' revisions move by the clients' writes alone. The
                        // unknown-version proxy depends on the identity leases.
                        "--feature-gates=APIServerIdentity=false,UnknownVersionInteroperabilityProxy=false"
                            .to_owned(),
                        format!("--secure-port={}", listen.port()),
                        format!("--tls-cert-file={}", path(&pki.cert_file)),
                        format!("--tls-private-key-file={}", path(&pki.key_file)),
                        format!("--token-auth-file={}", path(&pki.token_file)),
                        format!("--cert-dir={}", path(&cert_dir)),
                        "--authorization-mode=RBAC".to_owned(),
                        "--service-account-issuer=https://kubernetes.default.svc.cluster.local"
                            .to_owned(),
                        format!(
                            "--service-account-key-file={}",
                            path(&pki.service_account_public_key_file)
                        ),
                        format!(
                            "--service-account-signing-key-file={}",
                            path(&pki.service_account_key_file)
                        ),
                        // A range for Service IPs is required; no address in it is ever
                        // contacted.
                        format!("--service-cluster-ip-range={SERVICE_CLUSTER_IP_RANGE}"),
                    ],
                )
            }
        };
        match (storage, implementation) {
            (Storage::Etcd(endpoint), _) => args.push(format!("--etcd-servers={endpoint}")),
            (Storage::Redb(data), Implementation::Kapi(_)) => {
                args.push(format!("--data-dir={}", path(data)));
            }
            (Storage::Redb(_), Implementation::KubeApiserver(_)) => {
                return Err(Error::Setup("kube-apiserver stores only in etcd".into()));
            }
        }
        Ok(Server {
            target: Target {
                name: name.to_owned(),
                url: format!("https://{listen}"),
                ca_pem: pki.ca_pem.clone(),
                token: pki.token.clone(),
            },
            program,
            args,
            netns,
            log: dir.join(format!("{name}.log")),
            child: None,
            failed_starts: Vec::new(),
        })
    }

    /// The file its output goes to.
    pub fn log(&self) -> &Path {
        &self.log
    }

    /// Starts the process (again, on the same storage and address) and waits until it
    /// answers `/readyz`. A process that exits before it is ready (kapi serve does when
    /// etcd does not answer at startup) is started again, as a supervisor would, for up
    /// to two minutes; [`Server::failed_starts`] keeps why each such start failed.
    pub async fn start(&mut self) -> Result<(), Error> {
        if self.child.is_some() {
            return Ok(());
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            self.spawn()?;
            match self.wait_ready(deadline).await {
                Ok(()) => return Ok(()),
                Err(Exited(message)) if Instant::now() < deadline => {
                    self.failed_starts.push(message);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(Exited(message) | NotReady(message)) => return Err(Error::Setup(message)),
            }
        }
    }

    /// Why each start that exited before it was ready failed.
    pub fn failed_starts(&self) -> &[String] {
        &self.failed_starts
    }

    fn spawn(&mut self) -> Result<(), Error> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(Error::io(format!("open {}", self.log.display())))?;
        let err = log.try_clone().map_err(Error::io("clone the log"))?;
        let mut command = match &self.netns {
            Some(ns) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns]).arg(&self.program);
                c
            }
            None => Command::new(&self.program),
        };
        let child = command
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(Error::io(format!("start {}", self.program.display())))?;
        self.child = Some(child);
        Ok(())
    }

    async fn wait_ready(&mut self, deadline: Instant) -> Result<(), NotStarted> {
        let client = Client::new(&self.target, Duration::from_secs(5))
            .map_err(|e| NotReady(e.to_string()))?;
        let mut last = String::new();
        while Instant::now() < deadline {
            match client.request(http::Method::GET, "/readyz", "", None).await {
                Answer::Status(status, _) if status.is_success() => return Ok(()),
                other => last = format!("{other:?}"),
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                return Err(Exited(format!(
                    "{} exited with {status}; its log: {}",
                    self.target.name,
                    tail(&self.log)
                )));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.kill();
        Err(NotReady(format!(
            "{} was not ready in time (last: {last}); its log: {}",
            self.target.name,
            tail(&self.log)
        )))
    }

    /// Kills the process (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Whether the process runs.
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The end of a log, for errors.
fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let start = text.len().saturating_sub(2000);
    let start = (start..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len());
    text[start..].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pki(dir: &Path) -> Pki {
        Pki::create(dir, &[], 1).unwrap()
    }

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("history-server-test-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn both_servers_get_the_same_tls_and_token_flags() {
        let dir = temp("flags");
        let pki = pki(&dir);
        let listen: SocketAddr = "127.0.0.1:6443".parse().unwrap();
        let etcd = Storage::Etcd("http://127.0.0.1:2379".into());
        let kapi = Server::new(
            "a",
            &Implementation::Kapi("kapi".into()),
            &etcd,
            listen,
            &pki,
            &dir,
            None,
        )
        .unwrap();
        let go = Implementation::KubeApiserver("kube-apiserver".into());
        let kas = Server::new("b", &go, &etcd, listen, &pki, &dir, None).unwrap();
        for flag in [
            "--tls-cert-file=",
            "--tls-private-key-file=",
            "--token-auth-file=",
            "--etcd-servers=http://127.0.0.1:2379",
        ] {
            assert!(
                kapi.args.iter().any(|a| a.starts_with(flag)),
                "kapi lacks {flag}: {:?}",
                kapi.args
            );
            assert!(
                kas.args.iter().any(|a| a.starts_with(flag)),
                "kube-apiserver lacks {flag}: {:?}",
                kas.args
            );
        }
        assert_eq!(
            kapi.args[..2],
            ["serve".to_owned(), "--listen=127.0.0.1:6443".to_owned()]
        );
        for flag in [
            "--secure-port=6443",
            "--bind-address=127.0.0.1",
            "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
            "--authorization-mode=RBAC",
        ] {
            assert!(
                kas.args.iter().any(|a| a == flag),
                "kube-apiserver lacks {flag}: {:?}",
                kas.args
            );
        }
        assert!(
            kas.args
                .iter()
                .any(|a| a.starts_with("--service-account-signing-key-file="))
        );
        assert_eq!(kapi.target.url, "https://127.0.0.1:6443");
        assert_eq!(
            (kapi.target.token.as_str(), kapi.target.ca_pem.as_str()),
            (pki.token.as_str(), pki.ca_pem.as_str())
        );
        let tokens = std::fs::read_to_string(&pki.token_file).unwrap();
        assert!(
            tokens.ends_with(",history-admin,history-admin,\"system:masters\"\n"),
            "{tokens}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn kube_apiserver_is_refused_redb() {
        let dir = temp("redb");
        let pki = pki(&dir);
        let go = Implementation::KubeApiserver("kube-apiserver".into());
        let redb = Storage::Redb(dir.join("data"));
        let listen: SocketAddr = "127.0.0.1:6443".parse().unwrap();
        assert!(Server::new("a", &go, &redb, listen, &pki, &dir, None).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[tokio::test]
    async fn a_server_that_cannot_start_is_an_error_naming_its_log() {
        let dir = temp("missing");
        let pki = pki(&dir);
        let listen: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let missing = Implementation::Kapi(dir.join("no-such-binary"));
        let mut server = Server::new(
            "a",
            &missing,
            &Storage::Redb(dir.join("data")),
            listen,
            &pki,
            &dir,
            None,
        )
        .unwrap();
        let error = server.start().await.unwrap_err().to_string();
        assert!(error.contains("no-such-binary"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
