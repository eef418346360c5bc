//! The etcd under the servers (Debian's etcd 3.4 from `PATH`, or another build such as
//! the oracle's etcd 3.6): one member on loopback ports and a temporary data directory,
//! that the harness kills and restarts on the same data, pauses and resumes (SIGSTOP,
//! SIGCONT) and compacts, with `etcdctl`.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{free_port, run, signal};
use crate::error::Error;

/// One etcd member.
#[derive(Debug)]
pub struct Etcd {
    program: PathBuf,
    child: Option<Child>,
    paused: bool,
    data: PathBuf,
    log: PathBuf,
    client_port: u16,
    peer_port: u16,
    /// More addresses it serves clients on (a network namespace's link), besides
    /// loopback.
    extra_hosts: Vec<String>,
}

/// Whether `etcd` and `etcdctl` are installed. Under CI (env `CI`) their absence is an
/// error rather than a reason to skip.
pub fn installed() -> Result<bool, Error> {
    let runs = |program: &str| {
        Command::new(program)
            .arg("version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let found = Command::new("etcd")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
        && runs("etcdctl");
    if !found && std::env::var_os("CI").is_some() {
        return Err(Error::Setup(
            "etcd is not installed (apt-get install etcd-server etcd-client) and CI is set".into(),
        ));
    }
    Ok(found)
}

impl Etcd {
    /// An etcd (not yet started) keeping its data and log in `dir`, serving clients on
    /// loopback and on `extra_hosts`.
    pub fn new(dir: &std::path::Path, extra_hosts: Vec<String>) -> Result<Etcd, Error> {
        Ok(Etcd {
            program: PathBuf::from("etcd"),
            child: None,
            paused: false,
            data: dir.join("etcd-data"),
            log: dir.join("etcd.log"),
            client_port: free_port()?,
            peer_port: free_port()?,
            extra_hosts,
        })
    }

    /// The same etcd run from `program` instead of the `etcd` on `PATH` (kube-apiserver
    /// 1.36 needs etcd 3.5.13 or later for its watch progress requests; Debian's is 3.4).
    #[must_use]
    pub fn with_program(mut self, program: PathBuf) -> Etcd {
        self.program = program;
        self
    }

    /// `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.client_port)
    }

    /// The endpoint on `host`, one of the extra hosts.
    pub fn endpoint_on(&self, host: &str) -> String {
        format!("http://{host}:{}", self.client_port)
    }

    /// Starts etcd (again, on the same data and ports) and waits until it answers.
    pub fn start(&mut self) -> Result<(), Error> {
        if self.child.is_some() {
            return Ok(());
        }
        let listen: Vec<String> = std::iter::once(self.endpoint())
            .chain(self.extra_hosts.iter().map(|h| self.endpoint_on(h)))
            .collect();
        let peer = format!("http://127.0.0.1:{}", self.peer_port);
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(Error::io(format!("open {}", self.log.display())))?;
        let child = Command::new(&self.program)
            .arg("--name=history")
            .arg(format!("--data-dir={}", self.data.display()))
            .arg(format!("--listen-client-urls={}", listen.join(",")))
            .arg(format!("--advertise-client-urls={}", self.endpoint()))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster=history={peer}"))
            .arg("--log-level=warn")
            .arg("--logger=zap")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(Error::io(format!("start {}", self.program.display())))?;
        self.child = Some(child);
        self.paused = false;
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if self.revision().is_ok() {
                return Ok(());
            }
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                self.child = None;
                return Err(Error::Setup(format!(
                    "etcd exited with {status}: see {}",
                    self.log.display()
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(Error::Setup("etcd did not answer within 60 s".into()))
    }

    /// Kills etcd (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.paused = false;
    }

    /// Stops the process (SIGSTOP): its sockets stay open, nothing answers.
    pub fn pause(&mut self) -> Result<(), Error> {
        if let Some(child) = &self.child {
            signal("STOP", child.id())?;
            self.paused = true;
        }
        Ok(())
    }

    /// Resumes a paused process (SIGCONT).
    pub fn resume(&mut self) -> Result<(), Error> {
        if let (Some(child), true) = (&self.child, self.paused) {
            signal("CONT", child.id())?;
            self.paused = false;
        }
        Ok(())
    }

    /// Whether it runs and is not paused.
    pub fn is_up(&self) -> bool {
        self.child.is_some() && !self.paused
    }

    fn etcdctl(&self, args: &[&str]) -> Result<String, Error> {
        let endpoints = format!("--endpoints={}", self.endpoint());
        let mut all = vec![
            endpoints.as_str(),
            "--command-timeout=5s",
            "--dial-timeout=2s",
        ];
        all.extend_from_slice(args);
        run("etcdctl", &all)
    }

    /// The current revision.
    pub fn revision(&self) -> Result<u64, Error> {
        let status = self.etcdctl(&["endpoint", "status", "-w", "json"])?;
        let parsed: serde_json::Value = serde_json::from_str(&status)
            .map_err(|e| Error::Setup(format!("etcdctl endpoint status: {e}: {status}")))?;
        parsed
            .pointer("/0/Status/header/revision")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| {
                Error::Setup(format!("etcdctl endpoint status has no revision: {status}"))
            })
    }

    /// Compacts the history up to the current revision; that revision.
    pub fn compact(&self) -> Result<u64, Error> {
        let revision = self.revision()?;
        self.etcdctl(&["compact", &revision.to_string()])?;
        Ok(revision)
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        let _ = self.resume();
        self.kill();
    }
}
