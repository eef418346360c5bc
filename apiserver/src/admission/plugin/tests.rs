//! What the plugins' unit tests share: a server's stores over memory, objects created
//! in them, and the attributes of a request.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::{GroupVersionKind, GroupVersionResource};
use serde_json::Value;

use super::super::{Attributes, Operation, Reports};
use crate::authentication::Anonymous;
use crate::authentication::user::Info;
use crate::authorization::AlwaysAllow;
use crate::registry::builtin::rest_storages;
use crate::registry::dependencies::Dependencies;
use crate::registry::{Store, from_value, to_json};
use crate::resource_config::ResourceConfig;
use crate::storage::MemoryStorage;

/// The stores of every resource kube-apiserver serves by default, over memory.
pub(super) struct Fixture {
    pub(super) stores: BTreeMap<(String, String), Arc<Store>>,
    pub(super) scheme: Arc<Scheme>,
}

/// The kind and resource of a request: group, version, kind, resource.
pub(super) type Target<'a> = (&'a str, &'a str, &'a str, &'a str);

impl Fixture {
    pub(super) fn new() -> Fixture {
        let mut scheme = Scheme::with_name("admission-plugin-tests");
        scheme.add_registry().expect("the registry's kinds");
        let scheme = Arc::new(scheme);
        let storages = rest_storages(
            &Dependencies {
                scheme: scheme.clone(),
                storage: Arc::new(MemoryStorage::new()),
                authenticator: Arc::new(Anonymous),
                authorizer: Arc::new(AlwaysAllow),
                service_account_tokens: None,
                service_network: Default::default(),
            },
            &ResourceConfig::kube_apiserver_default(),
        );
        let stores = storages
            .iter()
            .map(|(key, rest)| (key.clone(), rest.store().clone()))
            .collect();
        Fixture { stores, scheme }
    }

    pub(super) fn store(&self, group: &str, resource: &str) -> Arc<Store> {
        self.stores
            .get(&(group.to_owned(), resource.to_owned()))
            .expect("a served resource")
            .clone()
    }

    fn object(&self, (group, version, kind, _): Target<'_>, json: Value) -> Box<dyn Object> {
        from_value(
            &self.scheme,
            &GroupVersionKind::new(group, version, kind),
            json,
        )
        .expect("a valid object")
    }

    /// Stores `json`, an object of `target` in `namespace`.
    pub(super) async fn create(&self, target: Target<'_>, namespace: &str, json: Value) {
        let store = self.store(target.0, target.3);
        store
            .create(namespace, self.object(target, json), false)
            .await
            .expect("created");
    }

    /// The attributes of `operation` on `json`, an object of `target`.
    pub(super) fn attributes(
        &self,
        operation: Operation,
        target: Target<'_>,
        subresource: &str,
        namespace: &str,
        json: Value,
    ) -> Attributes {
        let (group, version, kind, resource) = target;
        let name = json
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        Attributes {
            operation,
            user: Info::default(),
            kind: GroupVersionKind::new(group, version, kind),
            resource: GroupVersionResource::new(group, version, resource),
            subresource: subresource.to_owned(),
            namespace: namespace.to_owned(),
            name,
            object: Some(self.object(target, json)),
            old_object: None,
            dry_run: false,
            scheme: self.scheme.clone(),
            reports: Reports::default(),
        }
    }
}

/// The request's object as JSON.
pub(super) fn object_json(attributes: &Attributes) -> Value {
    to_json(attributes.object.as_deref().expect("an object")).expect("JSON")
}
