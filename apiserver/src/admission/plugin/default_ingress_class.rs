//! Go's `DefaultIngressClass` admission plugin
//! (`plugin/pkg/admission/network/defaultingressclass`): an Ingress created without
//! `spec.ingressClassName` (and without the older `kubernetes.io/ingress.class`
//! annotation) gets the name of the cluster's default IngressClass, the one annotated
//! [`IS_DEFAULT_CLASS_ANNOTATION`]` = "true"`. When several are, the newest wins, and
//! of those created in the same instant the first by name.

use std::collections::BTreeMap;
use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use async_trait::async_trait;
use serde_json::Value;

use super::super::{Attributes, MutationInterface, Operation};
use crate::registry::{Store, to_json};

/// The annotation that makes an IngressClass the default
/// (`networking.k8s.io/v1.AnnotationIsDefaultIngressClass`).
pub const IS_DEFAULT_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";

/// The annotation that named an Ingress's class before `spec.ingressClassName`
/// (`networking.k8s.io/v1beta1.AnnotationIngressClass`).
pub const INGRESS_CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";

const GROUP: &str = "networking.k8s.io";

/// The plugin, reading IngressClasses from their store's watch cache (Go's informer),
/// and from the storage when the cache cannot tell.
#[derive(Debug)]
pub struct DefaultIngressClass {
    classes: Arc<Store>,
}

impl DefaultIngressClass {
    /// The plugin over the store of networking.k8s.io `ingressclasses`.
    pub fn new(classes: Arc<Store>) -> Self {
        DefaultIngressClass { classes }
    }

    /// The plugin over the server's `stores` (by group and resource), when it serves
    /// IngressClasses.
    pub fn for_stores(stores: &BTreeMap<(String, String), Arc<Store>>) -> Option<Self> {
        let classes = stores.get(&(GROUP.to_owned(), "ingressclasses".to_owned()))?;
        Some(DefaultIngressClass::new(classes.clone()))
    }

    /// Every IngressClass, as JSON.
    async fn classes(&self) -> Result<Vec<Value>, StatusError> {
        let kvs = self.classes.list_stored().await?;
        kvs.iter()
            .map(|kv| to_json(&*self.classes.decode(kv)?))
            .collect()
    }
}

/// The name of the default class among `classes`: of those annotated, the newest, the
/// first by name among equally new (Go's `getDefaultClass`).
pub fn default_class(classes: &[Value]) -> Option<&str> {
    fn text<'a>(class: &'a Value, at: &str) -> &'a str {
        class.pointer(at).and_then(Value::as_str).unwrap_or("")
    }
    classes
        .iter()
        .filter(|class| {
            class
                .pointer("/metadata/annotations")
                .and_then(|a| a.get(IS_DEFAULT_CLASS_ANNOTATION))
                .and_then(Value::as_str)
                == Some("true")
        })
        .map(|class| {
            let created = text(class, "/metadata/creationTimestamp");
            (created, text(class, "/metadata/name"))
        })
        // RFC 3339 in UTC at one precision orders as text does.
        .min_by(|(a_created, a_name), (b_created, b_name)| {
            b_created.cmp(a_created).then(a_name.cmp(b_name))
        })
        .map(|(_, name)| name)
}

#[async_trait]
impl MutationInterface for DefaultIngressClass {
    fn handles(&self, operation: Operation) -> bool {
        operation == Operation::Create
    }

    async fn admit(&self, attributes: &mut Attributes) -> Result<(), StatusError> {
        let resource = &attributes.resource;
        if resource.group != GROUP || resource.resource != "ingresses" {
            return Ok(());
        }
        if !attributes.subresource.is_empty() {
            return Ok(());
        }
        let Some(object) = attributes.object.as_deref() else {
            return Ok(());
        };
        let mut ingress = to_json(object)?;
        let named = ingress
            .pointer("/spec/ingressClassName")
            .is_some_and(|n| !n.is_null());
        let annotated = ingress
            .pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .is_some_and(|a| a.contains_key(INGRESS_CLASS_ANNOTATION));
        if named || annotated {
            return Ok(());
        }
        let classes = self.classes().await.map_err(|e| attributes.forbidden(e))?;
        let Some(class) = default_class(&classes) else {
            return Ok(());
        };
        let class = Value::from(class);
        match ingress.get_mut("spec").and_then(Value::as_object_mut) {
            Some(spec) => {
                spec.insert("ingressClassName".into(), class);
            }
            None => {
                if let Some(map) = ingress.as_object_mut() {
                    map.insert(
                        "spec".into(),
                        serde_json::json!({"ingressClassName": class}),
                    );
                }
            }
        }
        attributes.set_object_json(ingress)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::tests::Fixture;
    use super::*;

    const CLASS: (&str, &str, &str, &str) = (GROUP, "v1", "IngressClass", "ingressclasses");
    const INGRESS: (&str, &str, &str, &str) = (GROUP, "v1", "Ingress", "ingresses");

    fn class(name: &str, created: &str, default: &str) -> Value {
        json!({"metadata": {"name": name, "creationTimestamp": created,
            "annotations": {IS_DEFAULT_CLASS_ANNOTATION: default}}})
    }

    #[test]
    fn the_newest_default_wins_and_then_the_first_name() {
        let classes = [
            class("old", "2026-01-01T00:00:00Z", "true"),
            class("new-b", "2026-02-01T00:00:00Z", "true"),
            class("new-a", "2026-02-01T00:00:00Z", "true"),
            class("newest-not-default", "2026-03-01T00:00:00Z", "false"),
        ];
        assert_eq!(default_class(&classes), Some("new-a"));
        assert_eq!(default_class(&classes[3..]), None);
        assert_eq!(default_class(&[]), None);
    }

    async fn admitted(fixture: &Fixture, ingress: Value) -> Value {
        let plugin = DefaultIngressClass::for_stores(&fixture.stores).unwrap();
        let mut attributes =
            fixture.attributes(Operation::Create, INGRESS, "", "web", ingress.clone());
        plugin.admit(&mut attributes).await.unwrap();
        super::super::tests::object_json(&attributes)
    }

    #[tokio::test]
    async fn an_ingress_without_a_class_gets_the_default_one() {
        let fixture = Fixture::new();
        let ingress = json!({"metadata": {"name": "web", "namespace": "web"},
            "spec": {"defaultBackend": {"service": {"name": "web", "port": {"number": 80}}}}});
        // Without a default class nothing changes.
        let out = admitted(&fixture, ingress.clone()).await;
        assert_eq!(out.pointer("/spec/ingressClassName"), None);
        for (name, default) in [("nginx", "true"), ("other", "false")] {
            let mut c = class(name, "2026-01-01T00:00:00Z", default);
            c["spec"] = json!({"controller": "example.com/ingress"});
            fixture.create(CLASS, "", c).await;
        }
        let out = admitted(&fixture, ingress.clone()).await;
        assert_eq!(out.pointer("/spec/ingressClassName"), Some(&json!("nginx")));
        // A class named, in the spec or the old annotation, stays.
        let mut named = ingress.clone();
        named["spec"]["ingressClassName"] = json!("other");
        let out = admitted(&fixture, named).await;
        assert_eq!(out.pointer("/spec/ingressClassName"), Some(&json!("other")));
        let mut annotated = ingress;
        annotated["metadata"]["annotations"] = json!({INGRESS_CLASS_ANNOTATION: "x"});
        let out = admitted(&fixture, annotated).await;
        assert_eq!(out.pointer("/spec/ingressClassName"), None);
    }
}
