//! Operations per second of a storage backend.
//!
//! ```text
//! cargo run --release -p apiserver --example storage_throughput -- memory [OPS] [CLIENTS]
//! cargo run --release -p apiserver --example storage_throughput -- redb FILE [OPS] [CLIENTS]
//! cargo run --release -p apiserver --example storage_throughput -- etcd URL [OPS] [CLIENTS]
//! ```
//!
//! (etcd's own ceiling, with no storage layer in front, is `etcdctl check perf`'s, which
//! `benchmarks/apiserver/run.sh` prints.)
//!
//! Each phase runs OPS operations (default 2,000) spread over CLIENTS concurrent tasks
//! (default 4) on distinct keys of 1 KiB values: create, get, update (compare-and-swap),
//! list of the whole prefix (OPS / 20 of them), delete.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use apiserver::storage::{
    EtcdStorage, ListOptions, MemoryStorage, RedbStorage, Storage, StorageError,
};
use bytes::Bytes;

const PREFIX: &str = "/registry/configmaps/bench/";

fn key(i: usize) -> String {
    format!("{PREFIX}cm-{i:06}")
}

/// Runs `ops` calls of `op` (given the operation's index) over `clients` tasks.
async fn phase<F, Fut>(name: &str, ops: usize, clients: usize, op: F) -> Result<(), String>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), StorageError>> + Send,
{
    let op = Arc::new(op);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..clients {
        let op = Arc::clone(&op);
        tasks.push(tokio::spawn(async move {
            let mut i = client;
            while i < ops {
                op(i).await?;
                i += clients;
            }
            Ok::<(), StorageError>(())
        }));
    }
    for task in tasks {
        task.await
            .map_err(|error| format!("{name}: {error}"))?
            .map_err(|error| format!("{name}: {error}"))?;
    }
    report(name, ops, started.elapsed());
    Ok(())
}

fn report(name: &str, ops: usize, elapsed: Duration) {
    println!(
        "{name:<28} {ops:>6} ops in {:>7.3}s = {:>9.0} ops/s",
        elapsed.as_secs_f64(),
        ops as f64 / elapsed.as_secs_f64()
    );
}

async fn through_backend(
    store: Arc<dyn Storage>,
    ops: usize,
    clients: usize,
) -> Result<(), String> {
    let value = Bytes::from(vec![b'x'; 1024]);
    {
        let (store, value) = (Arc::clone(&store), value.clone());
        phase("create", ops, clients, move |i| {
            let (store, value) = (Arc::clone(&store), value.clone());
            async move { store.create(&key(i), value).await.map(drop) }
        })
        .await?;
    }
    {
        let store = Arc::clone(&store);
        phase("get", ops, clients, move |i| {
            let store = Arc::clone(&store);
            async move { store.get(&key(i)).await.map(drop) }
        })
        .await?;
    }
    {
        let (store, value) = (Arc::clone(&store), value.clone());
        phase("update (get + CAS)", ops, clients, move |i| {
            let (store, value) = (Arc::clone(&store), value.clone());
            async move {
                let Some(current) = store.get(&key(i)).await? else {
                    return Err(StorageError::KeyNotFound { key: key(i) });
                };
                store
                    .update(&key(i), value, current.mod_revision)
                    .await
                    .map(drop)
            }
        })
        .await?;
    }
    {
        let store = Arc::clone(&store);
        let name = format!("list of {ops} keys");
        phase(&name, (ops / 20).max(1), clients, move |_| {
            let store = Arc::clone(&store);
            async move { store.list(PREFIX, &ListOptions::default()).await.map(drop) }
        })
        .await?;
    }
    {
        let store = Arc::clone(&store);
        phase("delete", ops, clients, move |i| {
            let store = Arc::clone(&store);
            async move { store.delete(&key(i), None).await.map(drop) }
        })
        .await?;
    }
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, default: usize| -> Result<usize, String> {
        args.get(at).map_or(Ok(default), |text| {
            text.parse().map_err(|_| format!("not a count: {text:?}"))
        })
    };
    let result = async {
        match args.first().map(String::as_str) {
            Some("memory") => {
                let (ops, clients) = (number(1, 2000)?, number(2, 4)?);
                through_backend(Arc::new(MemoryStorage::new()), ops, clients).await
            }
            Some("redb") => {
                let path = args.get(1).ok_or("redb needs a file path")?;
                let (ops, clients) = (number(2, 2000)?, number(3, 4)?);
                let store = RedbStorage::open(path).map_err(|error| error.to_string())?;
                through_backend(Arc::new(store), ops, clients).await
            }
            Some("etcd") => {
                let url = args.get(1).ok_or("etcd needs an endpoint URL")?;
                let (ops, clients) = (number(2, 2000)?, number(3, 4)?);
                let store = EtcdStorage::connect(&[url])
                    .await
                    .map_err(|error| error.to_string())?;
                through_backend(Arc::new(store), ops, clients).await
            }
            _ => Err(
                "usage: storage_throughput memory|redb FILE|etcd URL [OPS] [CLIENTS]".to_owned(),
            ),
        }
    }
    .await;
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("storage_throughput: {message}");
            ExitCode::FAILURE
        }
    }
}
