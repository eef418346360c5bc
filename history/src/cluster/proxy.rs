//! A TCP proxy in front of a server, for the watchers: it passes bytes both ways (TLS
//! end to end, it sees none of it) and, when told, drops every connection at once —
//! watches cut mid-stream — or also refuses new ones for a while, so that watchers fall
//! behind.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::AbortHandle;

use crate::error::Error;

/// A running proxy; it stops when dropped.
#[derive(Debug)]
pub struct Proxy {
    address: SocketAddr,
    shared: Arc<Shared>,
    accept: AbortHandle,
}

#[derive(Debug, Default)]
struct Shared {
    connections: Mutex<Vec<AbortHandle>>,
    blocked: AtomicBool,
}

impl Shared {
    fn drop_all(&self) -> usize {
        let mut connections = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let count = connections.iter().filter(|c| !c.is_finished()).count();
        for connection in connections.drain(..) {
            connection.abort();
        }
        count
    }
}

impl Proxy {
    /// A proxy on a free loopback port passing connections to `upstream`.
    pub async fn start(upstream: SocketAddr) -> Result<Proxy, Error> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(Error::io("bind the proxy"))?;
        let address = listener
            .local_addr()
            .map_err(Error::io("the proxy's address"))?;
        let shared = Arc::new(Shared::default());
        let state = shared.clone();
        let accept = tokio::spawn(async move {
            loop {
                let Ok((mut downstream, _)) = listener.accept().await else {
                    continue;
                };
                if state.blocked.load(Ordering::SeqCst) {
                    drop(downstream);
                    continue;
                }
                let task = tokio::spawn(async move {
                    if let Ok(mut up) = TcpStream::connect(upstream).await {
                        let _ = up.set_nodelay(true);
                        let _ = downstream.set_nodelay(true);
                        let _ = tokio::io::copy_bidirectional(&mut downstream, &mut up).await;
                    }
                });
                let mut connections = state
                    .connections
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                connections.retain(|c| !c.is_finished());
                connections.push(task.abort_handle());
            }
        })
        .abort_handle();
        Ok(Proxy {
            address,
            shared,
            accept,
        })
    }

    /// `https://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("https://{}", self.address)
    }

    /// Drops every open connection; how many there were.
    pub fn drop_connections(&self) -> usize {
        self.shared.drop_all()
    }

    /// Drops every connection and refuses new ones until [`Proxy::unblock`].
    pub fn block(&self) -> usize {
        self.shared.blocked.store(true, Ordering::SeqCst);
        self.shared.drop_all()
    }

    /// Accepts connections again.
    pub fn unblock(&self) {
        self.shared.blocked.store(false, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.shared.drop_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An echo server on a free port.
    async fn echo() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let (mut r, mut w) = socket.split();
                    let _ = tokio::io::copy(&mut r, &mut w).await;
                });
            }
        });
        address
    }

    async fn roundtrip(stream: &mut TcpStream) -> bool {
        if stream.write_all(b"ping").await.is_err() {
            return false;
        }
        let mut buf = [0u8; 4];
        stream.read_exact(&mut buf).await.is_ok() && &buf == b"ping"
    }

    #[tokio::test]
    async fn connections_pass_until_dropped_and_are_refused_while_blocked() {
        let proxy = Proxy::start(echo().await).await.unwrap();
        let address = proxy.url().trim_start_matches("https://").to_owned();
        let mut first = TcpStream::connect(&address).await.unwrap();
        assert!(roundtrip(&mut first).await);
        assert_eq!(proxy.drop_connections(), 1);
        assert!(
            !roundtrip(&mut first).await,
            "a dropped connection still passes bytes"
        );

        let mut second = TcpStream::connect(&address).await.unwrap();
        assert!(roundtrip(&mut second).await);
        proxy.block();
        let mut refused = TcpStream::connect(&address).await.unwrap();
        assert!(
            !roundtrip(&mut refused).await,
            "a blocked proxy passed a new connection"
        );
        proxy.unblock();
        let mut third = TcpStream::connect(&address).await.unwrap();
        assert!(roundtrip(&mut third).await);
    }
}
