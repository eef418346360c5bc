//! ServiceAccounts (Go's `pkg/registry/core/serviceaccount`): a deleted one answers with
//! itself, one newly given the deprecated mountable-secrets annotation is warned about,
//! and its `token` subresource issues tokens (`authentication.k8s.io/v1`
//! `TokenRequest`, Go's `TokenREST`) when the server has a token issuer; the table
//! `kubectl get serviceaccounts` prints is Go's `printServiceAccount`.

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::Object;
use apimachinery::schema::GroupVersionKind;
use serde_json::Value;

use super::sub;
use crate::admission::plugin::service_account::ENFORCE_MOUNTABLE_SECRETS_ANNOTATION as ENFORCE_MOUNTABLE_SECRETS;
use crate::authentication::serviceaccount::ServiceAccountTokens;
use crate::registry::dependencies::Dependencies;
use crate::registry::printers::{self, AGE, Column, NAME, Printer, Row, text};
use crate::registry::rest::{Context, Creater, RestStorage, TableConvertor};
use crate::registry::strategy::Strategy;
use crate::registry::{ResourceInfo, Store, SubresourceInfo};

/// Go's ServiceAccount strategy: a deleted account answers with itself; an account
/// newly given the annotation `kubernetes.io/enforce-mountable-secrets` (deprecated in
/// 1.32) is warned about, on create and on update
/// (not when the stored account has it already).
#[derive(Clone, Copy, Debug, Default)]
pub struct ServiceAccountStrategy;

/// Go's `warnIfHasEnforceMountableSecretsAnnotation`.
fn mountable_secrets_warning(obj: &dyn Object, old: Option<&dyn Object>) -> Vec<String> {
    let has = |o: &dyn Object| {
        o.meta()
            .is_some_and(|m| m.annotations().contains_key(ENFORCE_MOUNTABLE_SECRETS))
    };
    if old.is_some_and(has) || !has(obj) {
        return Vec::new();
    }
    vec![format!(
        "metadata.annotations[{ENFORCE_MOUNTABLE_SECRETS}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"
    )]
}

impl Strategy for ServiceAccountStrategy {
    fn returns_deleted_object(&self) -> bool {
        true
    }

    fn warnings_on_create(&self, obj: &dyn Object) -> Vec<String> {
        mountable_secrets_warning(obj, None)
    }

    fn warnings_on_update(&self, obj: &dyn Object, old: &dyn Object) -> Vec<String> {
        mountable_secrets_warning(obj, Some(old))
    }
}

/// Go's `serviceAccountColumnDefinitions`.
pub const COLUMNS: [Column; 2] = [NAME, AGE];

/// The ServiceAccounts' table convertor.
pub static SERVICE_ACCOUNT_TABLE: Printer = Printer {
    api_version: "v1",
    kind: "ServiceAccount",
    columns: &COLUMNS,
    print: print_service_account,
};

/// Go's `printServiceAccount`: name and age (its secrets are not counted any more).
pub fn print_service_account(obj: &Value) -> Row {
    Row::from(vec![
        Value::from(text(obj, "/metadata/name")),
        printers::age(obj),
    ])
}

/// The REST storage of ServiceAccounts.
#[derive(Debug)]
pub struct ServiceAccountStorage {
    store: Arc<Store>,
    token: Option<TokenRest>,
}

/// The ServiceAccounts' REST storage over `info`.
pub(super) fn storage(mut info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    // `token` is served, and listed, when the server has an issuer (as Go installs it
    // only then).
    if deps.service_account_tokens.is_some() {
        info.subresources = vec![SubresourceInfo {
            group: "authentication.k8s.io",
            version: "v1",
            ..sub("token", "TokenRequest", &["create"])
        }];
    }
    Arc::new(ServiceAccountStorage {
        store: deps.store(info, ServiceAccountStrategy),
        token: deps
            .service_account_tokens
            .clone()
            .map(|tokens| TokenRest { tokens }),
    })
}

impl RestStorage for ServiceAccountStorage {
    fn store(&self) -> &Arc<Store> {
        &self.store
    }

    fn subresource(&self, name: &str) -> Option<&dyn Creater> {
        match (name, &self.token) {
            ("token", Some(token)) => Some(token),
            _ => None,
        }
    }

    fn table_convertor(&self) -> Option<&dyn TableConvertor> {
        Some(&SERVICE_ACCOUNT_TABLE)
    }
}

/// `POST .../serviceaccounts/NAME/token` (Go's `TokenREST`): a token for the
/// ServiceAccount, which must exist.
#[derive(Debug)]
pub struct TokenRest {
    tokens: Arc<ServiceAccountTokens>,
}

#[async_trait::async_trait]
impl Creater for TokenRest {
    fn kind(&self, _version: &str) -> GroupVersionKind {
        GroupVersionKind::new("authentication.k8s.io", "v1", "TokenRequest")
    }

    async fn create(&self, ctx: &Context<'_>, obj: Value) -> Result<Value, StatusError> {
        self.tokens
            .request_token(ctx.namespace, ctx.name, obj)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Go's `TestPrintServiceAccount` cases: secrets or none, the row is name and age.
    #[test]
    fn service_accounts_print_name_and_age() {
        for sa in [
            json!({"metadata": {"name": "sa1"}, "secrets": []}),
            json!({"metadata": {"name": "sa1"}, "secrets": [{"name": "Secret1"}, {"name": "Secret2"}]}),
        ] {
            assert_eq!(
                Value::from(print_service_account(&sa).cells),
                json!(["sa1", "<unknown>"])
            );
        }
    }
}
