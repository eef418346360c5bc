//! Backends for the storage tests, each with what must live as long as the test (a
//! temporary directory, an etcd process).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod https_webhook;

use std::any::Any;
use std::sync::Arc;

use apiserver::storage::{MemoryStorage, RedbStorage, Storage};

/// What a test holds until it ends: dropping it removes the backend's resources.
pub type Guard = Box<dyn Any + Send>;

/// A fresh in-memory store.
pub async fn memory() -> Option<(Arc<dyn Storage>, Guard)> {
    Some((Arc::new(MemoryStorage::new()), Box::new(())))
}

/// A directory removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new(name: &str) -> TempDir {
        static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unique = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "apiserver-test-{}-{name}-{unique}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh redb store in a temporary directory.
pub async fn redb() -> Option<(Arc<dyn Storage>, Guard)> {
    let dir = TempDir::new("redb");
    let store = RedbStorage::open(dir.0.join("data.redb")).unwrap();
    Some((Arc::new(store), Box::new(dir)))
}

/// An etcd server of its own for one test: a free loopback port, a temporary data
/// directory, killed and waited for when dropped (also when the test fails).
pub struct Etcd {
    child: Option<std::process::Child>,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
    client_port: u16,
    peer_port: u16,
    dir: TempDir,
}

fn free_listener() -> std::net::TcpListener {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap()
}

/// Whether the `etcd` binary is installed; when it is not, a notice and `false`, or a
/// failure under CI (where .ci/run installs it).
pub fn etcd_installed() -> bool {
    let found = std::process::Command::new("etcd")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "etcd is not installed (apt-get install etcd-server etcd-client) and CI is set"
        );
        // Written to the process's stderr, not through `eprintln!`, which the test
        // harness captures and shows only for failures.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "notice: etcd is not installed; skipping an etcd test"
        );
    }
    found
}

impl Etcd {
    /// Starts etcd and waits until it answers; `None` when etcd is not installed.
    pub async fn start() -> Option<Etcd> {
        if !etcd_installed() {
            return None;
        }
        // Both listeners are held until both ports are known, so the two differ.
        let (client, peer) = (free_listener(), free_listener());
        let mut etcd = Etcd {
            child: None,
            endpoint: String::new(),
            client_port: client.local_addr().unwrap().port(),
            peer_port: peer.local_addr().unwrap().port(),
            dir: TempDir::new("etcd"),
        };
        drop((client, peer));
        etcd.endpoint = format!("http://127.0.0.1:{}", etcd.client_port);
        etcd.run().await;
        Some(etcd)
    }

    /// Starts the process (again, on the same port and data) and waits until it answers.
    pub async fn run(&mut self) {
        assert!(self.child.is_none(), "etcd is already running");
        let peer = format!("http://127.0.0.1:{}", self.peer_port);
        let log = std::fs::File::create(self.dir.0.join("etcd.log")).unwrap();
        let child = std::process::Command::new("etcd")
            .arg("--name=test")
            .arg(format!("--data-dir={}", self.dir.0.join("data").display()))
            .arg(format!("--listen-client-urls={}", self.endpoint))
            .arg(format!("--advertise-client-urls={}", self.endpoint))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster=test={peer}"))
            .arg("--log-level=error")
            .arg("--logger=zap")
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.child = Some(child);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", self.client_port)).is_ok() {
                let store = apiserver::storage::EtcdStorage::connect(&[&self.endpoint])
                    .await
                    .unwrap();
                if store.current_revision().await.is_ok() {
                    return;
                }
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                let log = std::fs::read_to_string(self.dir.0.join("etcd.log")).unwrap_or_default();
                panic!("etcd exited with {status}:\n{log}");
            }
            assert!(
                std::time::Instant::now() < deadline,
                "etcd did not answer within 30s"
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Kills the process (SIGKILL) and waits for it.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A store on a fresh etcd of its own; `None` when etcd is not installed.
pub async fn etcd() -> Option<(Arc<dyn Storage>, Guard)> {
    let etcd = Etcd::start().await?;
    let store = apiserver::storage::EtcdStorage::connect(&[&etcd.endpoint])
        .await
        .unwrap();
    Some((Arc::new(store), Box::new(etcd)))
}
