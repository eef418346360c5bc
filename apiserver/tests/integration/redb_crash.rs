//! The redb backend loses no acknowledged write when its process is killed: the test
//! re-runs its own binary as a writer that acknowledges each write on stdout, kills it
//! with SIGKILL in the middle of its writes, and checks the reopened file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use apiserver::storage::{ListOptions, RedbStorage, Storage};
use bytes::Bytes;

/// Set in the child: the database file it writes to.
const CHILD_ENV: &str = "APISERVER_REDB_CRASH_CHILD";
const PREFIX: &str = "/registry/configmaps/default/";
/// Acknowledgements the parent waits for before killing the child.
const KILL_AFTER: usize = 150;

/// The child: writes one key per revision until killed, acknowledging each write once
/// `create` has returned.
async fn write_until_killed(path: &str) {
    let store = RedbStorage::open(path).unwrap();
    for i in 0u64.. {
        let key = format!("{PREFIX}c{i:08}");
        let kv = store
            .create(&key, Bytes::from(i.to_string()))
            .await
            .unwrap();
        println!("ack {i} {}", kv.mod_revision);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_writes_survive_sigkill() {
    if let Ok(path) = std::env::var(CHILD_ENV) {
        write_until_killed(&path).await;
        return;
    }
    let dir = support::TempDir::new("crash");
    let path = dir.0.join("data.redb");
    // libtest names a test by its module path inside the binary, less the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let name = format!("{module}::acknowledged_writes_survive_sigkill");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name.as_str(), "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut acked: Vec<(u64, i64)> = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let Some(ack) = line.strip_prefix("ack ") else {
            continue;
        };
        let (i, revision) = ack.split_once(' ').unwrap();
        acked.push((i.parse().unwrap(), revision.parse().unwrap()));
        if acked.len() == KILL_AFTER {
            // `Child::kill` is SIGKILL on Unix: no destructor, no flush, no clean close.
            child.kill().unwrap();
            break;
        }
    }
    let status = child.wait().unwrap();
    assert!(!status.success(), "the writer was not killed: {status}");
    assert_eq!(
        acked.len(),
        KILL_AFTER,
        "the writer stopped early: {status}"
    );

    let store = RedbStorage::open(&path).unwrap();
    let revision = store.current_revision().await.unwrap();
    let (_, last_acked) = *acked.last().unwrap();
    assert!(
        revision >= last_acked,
        "revision {revision} < acknowledged {last_acked}"
    );
    for (i, acked_revision) in &acked {
        let kv = store
            .get(&format!("{PREFIX}c{i:08}"))
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("acknowledged write {i} lost"));
        assert_eq!(kv.mod_revision, *acked_revision);
        assert_eq!(&kv.value[..], i.to_string().as_bytes());
    }
    // Consistent: one key per revision, none missing, nothing beyond the revision.
    let listed = store.list(PREFIX, &ListOptions::default()).await.unwrap();
    assert_eq!(listed.kvs.len() as i64, revision);
    for (n, kv) in listed.kvs.iter().enumerate() {
        assert_eq!(kv.mod_revision, n as i64 + 1);
    }
    // The store goes on from there.
    let next = store.create("/registry/after", Bytes::new()).await.unwrap();
    assert_eq!(next.mod_revision, revision + 1);
}
