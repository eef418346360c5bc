//! Connection workers: the server's connections spread over several single-threaded
//! runtimes, each on its own thread (see [`Config::connection_workers`](super::Config::connection_workers)).
//!
//! On one multi-threaded runtime a request hops between threads: the connection's task,
//! the storage client's connection task and the request's own task are woken wherever a
//! worker is free, and each wake of a parked thread is a system call and a context
//! switch. A worker runs everything of its connections (and its own etcd connection,
//! see `storage::etcd`) on one thread, and the tasks its requests start (a watch cache's
//! event pump) with them. The listener stays on the runtime that started the server
//! and hands accepted connections to the workers in turn.

use std::net::SocketAddr;

use axum::extract::connect_info::Connected;
use axum::serve::IncomingStream;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use tokio::sync::watch;

use super::tls::{ConnectionInfo, GoSuiteOrder, TlsListener};
use super::{HandlerChain, serve_until_stopped, stopped};
use crate::authentication::ClientCertificates;

/// A connection accepted by the listener, on its way to a worker.
type Accepted = (std::net::TcpStream, SocketAddr);

/// Starts `count` workers serving `chain` (over TLS with `tls`) and the task that hands
/// them the connections `listener` accepts. The task ends once the server is told to
/// stop (`stop`) and every worker has finished the requests it was serving.
pub(super) fn start(
    listener: TcpListener,
    chain: HandlerChain,
    stop: watch::Receiver<bool>,
    count: usize,
    tls: Option<GoSuiteOrder>,
) -> std::io::Result<JoinHandle<std::io::Result<()>>> {
    let local = listener.local_addr()?;
    let mut queues = Vec::with_capacity(count);
    let mut threads = Vec::with_capacity(count);
    for index in 0..count {
        let (queue, accepted) = mpsc::unbounded_channel();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (chain, stop, tls) = (chain.clone(), stop.clone(), tls.clone());
        let thread = std::thread::Builder::new()
            .name(format!("apiserver-worker-{index}"))
            .spawn(move || {
                crate::worker::enter(index);
                runtime.block_on(serve(chain, stop, Handoff { accepted, local }, tls));
            })?;
        queues.push(queue);
        threads.push(thread);
    }
    Ok(tokio::spawn(hand_out(listener, stop, queues, threads)))
}

/// Accepts connections and gives them to the workers in turn until the server stops,
/// then waits for the workers.
async fn hand_out(
    listener: TcpListener,
    stop: watch::Receiver<bool>,
    queues: Vec<mpsc::UnboundedSender<Accepted>>,
    threads: Vec<std::thread::JoinHandle<()>>,
) -> std::io::Result<()> {
    let stop = stopped(stop);
    tokio::pin!(stop);
    let mut next = 0usize;
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, remote)) => {
                // Go's net package turns Nagle's algorithm off on every TCP connection;
                // with it on, the last segment of a response written in several waits
                // for the client's delayed ACK (40 ms on Linux): a list of 500
                // ConfigMaps in JSON had a p99 of 45 ms against 3.7 ms in protobuf.
                let _ = stream.set_nodelay(true);
                // Out of the listener's runtime, into the worker's when it takes it.
                if let Ok(stream) = stream.into_std() {
                    let _ = queues[next % queues.len()].send((stream, remote));
                    next = next.wrapping_add(1);
                }
            }
            // Out of file descriptors and the like: wait, as axum does.
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    drop(listener);
    drop(queues);
    let panicked = tokio::task::spawn_blocking(move || {
        threads
            .into_iter()
            .map(std::thread::JoinHandle::join)
            .filter(Result::is_err)
            .count()
    })
    .await
    .unwrap_or(1);
    if panicked > 0 {
        return Err(std::io::Error::other(format!(
            "{panicked} connection worker(s) panicked"
        )));
    }
    Ok(())
}

/// One worker's server: the filter chain over the connections handed to it, until the
/// server stops.
async fn serve(
    chain: HandlerChain,
    stop: watch::Receiver<bool>,
    handoff: Handoff,
    tls: Option<GoSuiteOrder>,
) {
    // A worker's serve loop ends only with the server; its errors are the listener's,
    // which the hand-out task reports.
    let _ = match tls {
        None => serve_until_stopped(handoff, chain, stop).await,
        Some(config) => {
            let local = handoff.local;
            serve_until_stopped(TlsListener::over(handoff, local, config), chain, stop).await
        }
    };
}

/// The connections handed to one worker, as a listener of its runtime.
struct Handoff {
    accepted: mpsc::UnboundedReceiver<Accepted>,
    /// The server's listening address.
    local: SocketAddr,
}

impl axum::serve::Listener for Handoff {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            match self.accepted.recv().await {
                // Registering with this runtime fails only when the process is out of
                // resources; that connection is closed.
                Some((stream, remote)) => {
                    if let Ok(stream) = TcpStream::from_std(stream) {
                        return (stream, remote);
                    }
                }
                // The hand-out task is gone: the server is stopping.
                None => std::future::pending().await,
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.local)
    }
}

impl Connected<IncomingStream<'_, Handoff>> for ConnectionInfo {
    fn connect_info(stream: IncomingStream<'_, Handoff>) -> Self {
        ConnectionInfo {
            remote: Some(*stream.remote_addr()),
            client_certificates: ClientCertificates::default(),
        }
    }
}
