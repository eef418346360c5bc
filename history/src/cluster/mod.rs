//! What a run runs on: the servers under test, the etcd under them, the proxies the
//! watchers go through, a network namespace for a server that is to be cut from etcd,
//! and the credentials they share, all in one temporary directory.

pub mod etcd;
pub mod netns;
pub mod pki;
pub mod proxy;
pub mod server;

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use crate::client::Target;
use crate::error::Error;
use etcd::Etcd;
use netns::Netns;
use pki::Pki;
use proxy::Proxy;
use server::{Implementation, Server, Storage};

/// Where the servers keep objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// One etcd, shared by every server.
    Etcd,
    /// `kapi serve --data-dir` (one server only).
    Redb,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct ClusterSpec {
    /// The server under test.
    pub implementation: Implementation,
    /// Its storage.
    pub backend: Backend,
    /// How many servers (on one etcd).
    pub servers: usize,
    /// The last server runs in a network namespace of its own, so that it can be cut
    /// from etcd.
    pub partition: bool,
    /// The etcd to run, when not the `etcd` on `PATH`.
    pub etcd_program: Option<PathBuf>,
}

/// A running cluster; everything is stopped, and the directory removed unless kept,
/// when it is dropped.
#[derive(Debug)]
pub struct Cluster {
    /// The servers, `a`, `b`, ...
    pub servers: Vec<Server>,
    /// One proxy per server, for its watchers.
    pub proxies: Vec<Proxy>,
    /// The etcd, on etcd.
    pub etcd: Option<Etcd>,
    /// The last server's namespace, when it is to be cut.
    pub netns: Option<Netns>,
    /// The credentials.
    pub pki: Pki,
    dir: RunDir,
}

impl Cluster {
    /// Starts everything `spec` asks for and waits until the servers are ready.
    pub async fn start(spec: &ClusterSpec, seed: u64) -> Result<Cluster, Error> {
        let dir = RunDir::new()?;
        let servers = spec.servers.max(1);
        if spec.backend == Backend::Redb && servers > 1 {
            return Err(Error::Setup("servers on redb cannot share storage".into()));
        }
        if spec.partition && (spec.backend != Backend::Etcd || servers < 2) {
            return Err(Error::Setup("a partition needs two servers on etcd".into()));
        }
        let netns = if spec.partition {
            Some(Netns::create()?)
        } else {
            None
        };
        let addresses: Vec<IpAddr> = netns.iter().flat_map(Netns::addresses).collect();
        let pki = Pki::create(&dir.0, &addresses, seed)?;
        let mut etcd = match spec.backend {
            Backend::Etcd => {
                let extra = netns.iter().map(|n| n.etcd_host.to_string()).collect();
                let mut etcd = Etcd::new(&dir.0, extra)?;
                if let Some(program) = &spec.etcd_program {
                    etcd = etcd.with_program(program.clone());
                }
                etcd.start()?;
                Some(etcd)
            }
            Backend::Redb => None,
        };
        let mut cluster_servers = Vec::new();
        for i in 0..servers {
            let name = char::from(b'a' + u8::try_from(i % 26).unwrap_or(0)).to_string();
            let in_netns = netns.as_ref().filter(|_| i == servers - 1);
            let storage = match (&etcd, in_netns) {
                (Some(etcd), Some(ns)) => {
                    Storage::Etcd(etcd.endpoint_on(&ns.etcd_host.to_string()))
                }
                (Some(etcd), None) => Storage::Etcd(etcd.endpoint()),
                (None, _) => Storage::Redb(dir.0.join(format!("{name}-data"))),
            };
            let listen = match in_netns {
                Some(ns) => SocketAddr::new(IpAddr::V4(ns.server_address), 6443),
                None => SocketAddr::new(IpAddr::from([127, 0, 0, 1]), free_port()?),
            };
            let server = Server::new(
                &name,
                &spec.implementation,
                &storage,
                listen,
                &pki,
                &dir.0,
                in_netns.map(|n| n.name.clone()),
            )?;
            cluster_servers.push(server);
        }
        for server in &mut cluster_servers {
            if let Err(e) = server.start().await {
                if let Some(etcd) = &mut etcd {
                    etcd.kill();
                }
                return Err(e);
            }
        }
        let mut proxies = Vec::new();
        for server in &cluster_servers {
            let upstream: SocketAddr = server
                .target
                .url
                .trim_start_matches("https://")
                .parse()
                .map_err(|e| Error::Setup(format!("{}: {e}", server.target.url)))?;
            proxies.push(Proxy::start(upstream).await?);
        }
        Ok(Cluster {
            servers: cluster_servers,
            proxies,
            etcd,
            netns,
            pki,
            dir,
        })
    }

    /// How watchers of server `i` reach it: through its proxy.
    pub fn watch_target(&self, i: usize) -> Target {
        Target {
            url: self.proxies[i].url(),
            ..self.servers[i].target.clone()
        }
    }

    /// The run's directory (logs, data, credentials).
    pub fn dir(&self) -> &Path {
        &self.dir.0
    }

    /// Keeps the run's directory after the cluster is dropped (to look at the logs of
    /// a run that found something).
    pub fn keep(&mut self) -> PathBuf {
        self.dir.1 = true;
        self.dir.0.clone()
    }
}

/// A temporary directory, removed when dropped unless kept.
#[derive(Debug)]
struct RunDir(PathBuf, bool);

impl RunDir {
    fn new() -> Result<RunDir, Error> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("history-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(Error::io(format!("create {}", dir.display())))?;
        Ok(RunDir(dir, false))
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if !self.1 {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A free loopback port (free when asked: the process given it binds it soon after).
pub fn free_port() -> Result<u16, Error> {
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").map_err(Error::io("find a free port"))?;
    Ok(listener
        .local_addr()
        .map_err(Error::io("find a free port"))?
        .port())
}

/// Sends signal `name` (`STOP`, `CONT`) to process `pid` with `kill(1)`.
pub fn signal(name: &str, pid: u32) -> Result<(), Error> {
    run("kill", &[&format!("-{name}"), &pid.to_string()]).map(drop)
}

/// Runs `program` with `args`, which must succeed; its standard output.
pub fn run(program: &str, args: &[&str]) -> Result<String, Error> {
    let command = format!("{program} {}", args.join(" "));
    let output = std::process::Command::new(program)
        .args(args)
        .output()
        .map_err(Error::io(command.clone()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        return Err(Error::Command {
            command,
            output: if stderr.is_empty() {
                output.status.to_string()
            } else {
                stderr
            },
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
