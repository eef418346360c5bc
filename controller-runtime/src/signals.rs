//! Shutdown on a signal (controller-runtime's `pkg/manager/signals`, Go's
//! `ctrl.SetupSignalHandler`): the first SIGINT or SIGTERM completes the future
//! [`setup_signal_handler`] returns, which is what [`Manager::start`](crate::manager::Manager::start)
//! waits for; a second one exits the process at once (with status 1), for a shutdown that
//! hangs.
//!
//! ```no_run
//! # async fn run(mgr: controller_runtime::manager::Manager) -> Result<(), Box<dyn std::error::Error>> {
//! mgr.start(controller_runtime::signals::setup_signal_handler()?).await?;
//! # Ok(()) }
//! ```

use std::future::Future;

/// Listens for SIGINT and SIGTERM (Ctrl-C alone where there are no Unix signals) from
/// now on, and answers the future that completes at the first one. A second one exits
/// the process with status 1, whether or not the future is still awaited.
///
/// Call it inside a Tokio runtime; it fails only when the signal handlers cannot be
/// installed. Unlike Go's, it may be called more than once (each call listens on its own).
pub fn setup_signal_handler() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    let mut signals = Signals::new()?;
    let (first_tx, first_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        signals.next().await;
        let _ = first_tx.send(());
        signals.next().await;
        tracing::warn!("second signal: exiting without waiting for shutdown");
        std::process::exit(1);
    });
    Ok(async move {
        // The listener never drops its sender before sending; should it (a runtime
        // shutting down), shutdown is not asked for.
        if first_rx.await.is_err() {
            std::future::pending::<()>().await;
        }
    })
}

/// The two signals that ask for shutdown.
#[cfg(unix)]
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    terminate: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    fn new() -> std::io::Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            interrupt: signal(SignalKind::interrupt())?,
            terminate: signal(SignalKind::terminate())?,
        })
    }

    async fn next(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }
}

/// Ctrl-C, where there are no Unix signals.
#[cfg(not(unix))]
struct Signals;

#[cfg(not(unix))]
impl Signals {
    fn new() -> std::io::Result<Self> {
        Ok(Self)
    }

    async fn next(&mut self) {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// SIGTERM (sent once: a second one would end the test process) completes the
    /// shutdown future, and only it.
    #[tokio::test]
    async fn the_first_sigterm_completes_the_shutdown_future() {
        let shutdown = setup_signal_handler().unwrap();
        tokio::pin!(shutdown);
        let early = tokio::time::timeout(std::time::Duration::from_millis(50), &mut shutdown);
        assert!(early.await.is_err(), "completed without a signal");
        let kill = std::process::Command::new("kill")
            .args(["-TERM", &std::process::id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        tokio::time::timeout(std::time::Duration::from_secs(10), shutdown)
            .await
            .unwrap();
    }
}
