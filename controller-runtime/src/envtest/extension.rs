//! Programs started with an environment (what Go's envtest leaves to each test): once
//! the API server answers, each [`Extension`] named on the builder is started with the
//! [`Environment`] (its `Config`, scheme, kubeconfig), and stopped, in reverse order,
//! before the server when the environment stops. The `controller-manager` crate's
//! controllers (garbage collection, namespace deletion, service accounts) plug in here:
//! this crate cannot depend on them, they depend on it.

use std::fmt;

use futures_util::future::BoxFuture;

use super::Environment;

/// Why an extension could not start.
pub type ExtensionError = Box<dyn std::error::Error + Send + Sync>;

/// Something started with an [`Environment`] once its server is ready (see
/// [`EnvironmentBuilder::with`](super::EnvironmentBuilder::with)).
pub trait Extension: Send + Sync + fmt::Debug {
    /// Starts against `env`'s server; the environment stops what this returns before
    /// the server.
    fn start<'a>(
        &'a self,
        env: &'a Environment,
    ) -> BoxFuture<'a, Result<Box<dyn RunningExtension>, ExtensionError>>;
}

/// A started [`Extension`]. Dropping it without [`stop`](Self::stop) must stop it too
/// (an environment dropped in a failing test).
pub trait RunningExtension: Send + Sync + fmt::Debug {
    /// Stops it and waits until it has stopped.
    fn stop(self: Box<Self>) -> BoxFuture<'static, ()>;
}
