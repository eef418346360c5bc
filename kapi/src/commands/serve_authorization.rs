//! `kapi serve --authorization-mode`: kube-apiserver's authorizer chain. Members of
//! `system:masters` are allowed everything first, then each mode in the flag's order
//! decides: `RBAC` (the default: the Roles and bindings the server stores, the default
//! policy created at start, escalation checks on RBAC writes), `AlwaysAllow`,
//! `AlwaysDeny`.

use std::sync::Arc;
use std::time::Duration;

use apimachinery::api::errors;
use apimachinery::runtime::Scheme;
use apiserver::admission::ValidationInterface;
use apiserver::authorization::rbac::{Rbac, bootstrap};
use apiserver::authorization::{
    AlwaysAllow, AlwaysDeny, Authorizer, Named, PrivilegedGroups, Union,
};
use apiserver::registry::rbac::escalation::EscalationCheck;
use apiserver::storage::Storage;

use super::CommandError;

/// The modes `--authorization-mode` takes.
pub const MODES: [&str; 3] = ["RBAC", "AlwaysAllow", "AlwaysDeny"];

/// The server's authorizer and the admission plugins its modes need.
pub struct Authorization {
    /// The authorizer: `Union[PrivilegedGroups, modes...]`.
    pub authorizer: Arc<dyn Authorizer>,
    /// The validating admission plugins the modes add (RBAC's escalation check).
    pub validating: Vec<Arc<dyn ValidationInterface>>,
}

/// How long the default RBAC policy is tried at start while the storage does not answer,
/// one attempt a second at most: kube-apiserver's `EnsureRBACPolicy` polls for 30 s (and
/// then exits), so a server started while etcd is briefly away comes up when it is back.
const POLICY_RETRY: Duration = Duration::from_secs(30);
const POLICY_INTERVAL: Duration = Duration::from_secs(1);

/// Creates the default RBAC policy, trying again for `retry` while the storage is
/// unavailable (503); any other error at once.
async fn ensure_policy(
    scheme: &Arc<Scheme>,
    storage: &Arc<dyn Storage>,
    retry: Duration,
) -> Result<(), CommandError> {
    let deadline = tokio::time::Instant::now() + retry;
    loop {
        match bootstrap::ensure(scheme, storage).await {
            Ok(_) => return Ok(()),
            Err(e)
                if errors::is_service_unavailable(&e)
                    && tokio::time::Instant::now() + POLICY_INTERVAL < deadline =>
            {
                tokio::time::sleep(POLICY_INTERVAL).await;
            }
            Err(e) => {
                return Err(
                    format!("creating the default RBAC policy: {}", e.status.message).into(),
                );
            }
        }
    }
}

/// Builds the authorizer of `modes` (kube-apiserver's names, in order, each once) over
/// `storage`; with RBAC, creates the default roles and bindings missing from it.
pub async fn authorization(
    modes: &[String],
    scheme: &Arc<Scheme>,
    storage: &Arc<dyn Storage>,
) -> Result<Authorization, CommandError> {
    if modes.is_empty() {
        return Err("--authorization-mode: at least one authorization mode must be passed".into());
    }
    let mut chain = vec![Named::new(
        Named::PRIVILEGED_GROUPS,
        Arc::new(PrivilegedGroups),
    )];
    let mut rbac = None;
    for (i, mode) in modes.iter().enumerate() {
        if modes[..i].contains(mode) {
            return Err(format!("--authorization-mode: {mode} is specified more than once").into());
        }
        // kube-apiserver names each mode's authorizer the mode in lower case
        // (`GetNameForAuthorizerMode`); 1.37's union quotes the name in its reasons.
        let name = mode.to_lowercase();
        match mode.as_str() {
            "AlwaysAllow" => chain.push(Named::new(name, Arc::new(AlwaysAllow))),
            "AlwaysDeny" => chain.push(Named::new(name, Arc::new(AlwaysDeny))),
            "RBAC" => {
                ensure_policy(scheme, storage, POLICY_RETRY).await?;
                let authorizer = Rbac::new(scheme.clone(), storage.clone());
                chain.push(Named::new(name, authorizer.clone()));
                rbac = Some(authorizer);
            }
            other => {
                return Err(format!(
                    "--authorization-mode: unknown authorization mode {other} specified (supported: {})",
                    MODES.join(", ")
                )
                .into());
            }
        }
    }
    let authorizer: Arc<dyn Authorizer> =
        Arc::new(Union::new(chain).map_err(|e| format!("--authorization-mode: {e}"))?);
    let validating: Vec<Arc<dyn ValidationInterface>> = match rbac {
        Some(rbac) => vec![Arc::new(EscalationCheck::new(rbac, authorizer.clone()))],
        None => Vec::new(),
    };
    Ok(Authorization {
        authorizer,
        validating,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modes(m: &[&str]) -> Vec<String> {
        m.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn unknown_repeated_and_missing_modes_are_refused() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(refusals());
    }

    async fn refusals() {
        let scheme = Arc::new(crate::scheme::scheme().unwrap());
        let storage: Arc<dyn Storage> = Arc::new(apiserver::storage::MemoryStorage::new());
        for bad in [modes(&["Node"]), modes(&["RBAC", "RBAC"]), modes(&[])] {
            assert!(
                authorization(&bad, &scheme, &storage).await.is_err(),
                "{bad:?}"
            );
        }
        let ok = authorization(&modes(&["AlwaysAllow"]), &scheme, &storage)
            .await
            .unwrap();
        assert!(ok.validating.is_empty());
        let rbac = authorization(&modes(&["RBAC"]), &scheme, &storage)
            .await
            .unwrap();
        assert_eq!(rbac.validating.len(), 1);
    }
}
