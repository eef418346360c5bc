//! What the cluster allows of a pod (Go's `pkg/capabilities`): whether privileged
//! containers, and Windows HostProcess containers, are allowed. kube-apiserver sets it
//! once from `--allow-privileged`, whose default is false; so is it here.

use std::sync::atomic::{AtomicBool, Ordering};

static ALLOW_PRIVILEGED: AtomicBool = AtomicBool::new(false);

/// Allows (or, as by default, refuses) privileged and HostProcess containers in every
/// pod validated after the call, as kube-apiserver's `--allow-privileged` does.
///
/// ```
/// k8s_types::validation::set_allow_privileged(true);
/// assert!(k8s_types::validation::allow_privileged());
/// k8s_types::validation::set_allow_privileged(false);
/// ```
pub fn set_allow_privileged(allow: bool) {
    ALLOW_PRIVILEGED.store(allow, Ordering::Relaxed);
}

/// Whether privileged containers are allowed (false unless
/// [`set_allow_privileged`] said otherwise).
pub fn allow_privileged() -> bool {
    ALLOW_PRIVILEGED.load(Ordering::Relaxed)
}
