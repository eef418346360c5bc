//! A network namespace for one server, so that it can be cut from etcd while its
//! clients still reach it: two veth pairs to the harness's namespace, one carrying its
//! etcd traffic and one its clients', each a /24 of 10.199.0.0/16 that only these links
//! use. Cutting sets the namespace's end of the etcd link down: packets are dropped,
//! connections hang as in a real partition (no reset), and healing sets it up again.
//!
//! Traffic stays on this machine: the harness's end of each link keeps its route while
//! the link is down (the kernel marks it `linkdown` and drops what is sent), and a
//! blackhole route for all of 10.199.0.0/16 (added once, left in place) makes sure no
//! packet for these addresses ever takes the default route, even after a link is gone.
//! The namespace has no route but its links.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU64, Ordering};

use super::run;
use crate::error::Error;

/// The range the links' subnets are taken from.
const RANGE: &str = "10.199.0.0/16";

/// A namespace with its two links; deleted (with its links) when dropped.
#[derive(Debug)]
pub struct Netns {
    /// The namespace's name.
    pub name: String,
    /// The harness's address on the etcd link (etcd listens there too).
    pub etcd_host: Ipv4Addr,
    /// The namespace's address on the client link (the server listens there).
    pub server_address: Ipv4Addr,
    /// The namespace's end of the etcd link.
    etcd_link: String,
}

/// Whether network namespaces can be made here (root, iproute2). Under CI their
/// absence is an error rather than a reason to skip.
pub fn available() -> Result<bool, Error> {
    let probe = format!("hprobe{}", std::process::id());
    let ok = run("ip", &["netns", "add", &probe]).is_ok();
    if ok {
        let _ = run("ip", &["netns", "del", &probe]);
    } else if std::env::var_os("CI").is_some() {
        return Err(Error::Setup(
            "network namespaces cannot be made here (`ip netns add` needs root and iproute2) and CI is set".into(),
        ));
    }
    Ok(ok)
}

impl Netns {
    /// Makes the namespace and its links.
    pub fn create() -> Result<Netns, Error> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        // A blackhole for the whole range, below every link's own route.
        run(
            "ip",
            &["route", "replace", "blackhole", RANGE, "metric", "4000"],
        )?;
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let start = (u64::from(std::process::id()) * 7 + n * 2) % 120;
        let subnet = (0..120)
            .map(|i| u8::try_from(2 * ((start + i) % 120) + 2).unwrap_or(2))
            .find(|&s| {
                let used = |s: u8| {
                    run("ip", &["-4", "route", "show", &format!("10.199.{s}.0/24")])
                        .map(|out| !out.trim().is_empty())
                        .unwrap_or(true)
                };
                !used(s) && !used(s + 1)
            })
            .ok_or_else(|| Error::Setup("no free subnet of 10.199.0.0/16".into()))?;
        let name = format!("hist{}-{subnet}", std::process::id());
        run("ip", &["netns", "add", &name])?;
        let netns = Netns {
            name: name.clone(),
            etcd_host: Ipv4Addr::new(10, 199, subnet, 1),
            server_address: Ipv4Addr::new(10, 199, subnet + 1, 2),
            etcd_link: format!("h{subnet}e1"),
        };
        run("ip", &["-n", &name, "link", "set", "lo", "up"])?;
        for (s, tag) in [(subnet, 'e'), (subnet + 1, 'c')] {
            let (outside, inside) = (format!("h{subnet}{tag}0"), format!("h{subnet}{tag}1"));
            run(
                "ip",
                &[
                    "link", "add", &outside, "type", "veth", "peer", "name", &inside,
                ],
            )?;
            run("ip", &["link", "set", &inside, "netns", &name])?;
            run(
                "ip",
                &["addr", "add", &format!("10.199.{s}.1/24"), "dev", &outside],
            )?;
            run("ip", &["link", "set", &outside, "up"])?;
            run(
                "ip",
                &[
                    "-n",
                    &name,
                    "addr",
                    "add",
                    &format!("10.199.{s}.2/24"),
                    "dev",
                    &inside,
                ],
            )?;
            run("ip", &["-n", &name, "link", "set", &inside, "up"])?;
        }
        Ok(netns)
    }

    /// The addresses the serving certificate must name.
    pub fn addresses(&self) -> Vec<IpAddr> {
        vec![IpAddr::V4(self.server_address), IpAddr::V4(self.etcd_host)]
    }

    /// Cuts the namespace from etcd: its end of the etcd link goes down.
    pub fn cut(&self) -> Result<(), Error> {
        run(
            "ip",
            &["-n", &self.name, "link", "set", &self.etcd_link, "down"],
        )
        .map(drop)
    }

    /// Heals the cut.
    pub fn heal(&self) -> Result<(), Error> {
        run(
            "ip",
            &["-n", &self.name, "link", "set", &self.etcd_link, "up"],
        )
        .map(drop)
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        // Deleting the namespace deletes the links, both ends.
        let _ = run("ip", &["netns", "del", &self.name]);
    }
}
