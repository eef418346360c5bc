//! `POST .../pods/NAME/binding` (Go's `BindingREST`): what a scheduler writes to place a
//! Pod on a Node. The Pod's `spec.nodeName` is set (once: a bound Pod, a Pod being
//! deleted or one with scheduling gates refuses with 409), the Binding's annotations and
//! labels are copied onto it (labels: PodTopologyLabelsAdmission, beta and on since
//! 1.35), its nominated node cleared (ClearingNominatedNodeNameAfterBinding, beta and on
//! since 1.35) and its `PodScheduled` condition turns `True`. The answer is a `Status`
//! of `Success`, 201.

use std::sync::Arc;

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::Time;
use apimachinery::apis::meta::v1::validation::name_is_dns_subdomain;
use apimachinery::schema::{GroupResource, GroupVersionKind};
use apimachinery::util::validation::field::{Error, Path};
use serde_json::{Value, json};

use crate::registry::rest::{Context, Creater};
use crate::registry::{Store, from_value, to_json};
use crate::storage::uid_precondition_failed;

/// Go's `ValidatePodBinding`, as the texts of its errors: the target a Node (or of no
/// kind), named; from Kubernetes 1.37 the name of a Node target a valid node name (a
/// DNS subdomain).
fn validate_pod_binding(kind: &str, node: &str) -> Vec<String> {
    let mut invalid = Vec::new();
    if !kind.is_empty() && kind != "Node" {
        invalid.push(format!(
            "target.kind: Unsupported value: {kind:?}: supported values: \"Node\", \"<empty>\""
        ));
    }
    if node.is_empty() {
        invalid.push("target.name: Required value".to_owned());
    } else if cfg!(feature = "v1_37") && (kind.is_empty() || kind == "Node") {
        let path = Path::new("target.name");
        for msg in name_is_dns_subdomain(node, false) {
            invalid.push(Error::invalid(&path, node, msg).to_string());
        }
    }
    invalid
}

/// `POST /api/v1/namespaces/NS/bindings` (Go's `LegacyBindingREST`, the resource
/// `bindings`): the binding subresource of the Pod the Binding names in its metadata
/// (the path names none).
#[derive(Debug)]
pub struct LegacyBindingRest {
    /// The subresource it answers with.
    pub binding: BindingRest,
}

#[async_trait::async_trait]
impl Creater for LegacyBindingRest {
    fn kind(&self, version: &str) -> GroupVersionKind {
        self.binding.kind(version)
    }

    fn answer_kind(&self, version: &str) -> GroupVersionKind {
        self.binding.answer_kind(version)
    }

    async fn create(&self, ctx: &Context<'_>, binding: Value) -> Result<Value, StatusError> {
        let name = binding
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let ctx = Context {
            user: ctx.user,
            namespace: ctx.namespace,
            name: &name,
            version: ctx.version,
            dry_run: ctx.dry_run,
        };
        self.binding.create(&ctx, binding).await
    }
}

/// The binding subresource of the Pods' storage.
#[derive(Debug)]
pub struct BindingRest {
    pub(super) store: Arc<Store>,
}

#[async_trait::async_trait]
impl Creater for BindingRest {
    fn kind(&self, version: &str) -> GroupVersionKind {
        GroupVersionKind::new("", version, "Binding")
    }

    fn answer_kind(&self, _version: &str) -> GroupVersionKind {
        GroupVersionKind::new("", "v1", "Status")
    }

    async fn create(&self, ctx: &Context<'_>, binding: Value) -> Result<Value, StatusError> {
        let text = |pointer: &str| {
            binding
                .pointer(pointer)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        if text("/metadata/name") != ctx.name {
            return Err(errors::new_bad_request(
                "name in URL does not match name in Binding object",
            ));
        }
        let (kind, node) = (text("/target/kind"), text("/target/name"));
        // Go's ValidatePodBinding answers through a plain error (an aggregate): a 500
        // with its text and no reason, as Go's handler answers any error not a Status.
        let invalid = validate_pod_binding(&kind, &node);
        match invalid.len() {
            0 => {}
            1 => return Err(StatusError::failure(500, "", invalid[0].clone())),
            _ => {
                return Err(StatusError::failure(
                    500,
                    "",
                    format!("[{}]", invalid.join(", ")),
                ));
            }
        }
        let uid = text("/metadata/uid");
        let rv = text("/metadata/resourceVersion");
        let annotations = binding
            .pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let labels = binding
            .pointer("/metadata/labels")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        // The Pod's storage key needs a name (Go's NamespaceKeyFunc): a legacy Binding
        // naming none is refused there, after the Binding's validation.
        if ctx.name.is_empty() {
            return Err(errors::new_bad_request("Name parameter required."));
        }
        let resource = GroupResource::new("", "pods/binding");
        // A failed precondition is the storage's error, on pods (Go's
        // InterpretUpdateError of a GuaranteedUpdate with preconditions).
        let pods = GroupResource::new("", "pods");
        let key = self.store.info().key(ctx.namespace, ctx.name);
        let (scheme, gvk) = (
            Arc::clone(self.store.scheme()),
            self.store.info().storage_gvk.clone(),
        );
        let name = ctx.name.to_owned();
        self.store
            .update_stored(ctx.namespace, ctx.name, ctx.dry_run, |obj| {
                let mut pod = to_json(&*obj)?;
                let meta = |p: &str| pod.pointer(p).and_then(Value::as_str).unwrap_or("");
                if !uid.is_empty() && meta("/metadata/uid") != uid {
                    return Err(uid_precondition_failed(
                        &pods,
                        &name,
                        &key,
                        &uid,
                        meta("/metadata/uid"),
                    ));
                }
                if !rv.is_empty() && meta("/metadata/resourceVersion") != rv {
                    return Err(errors::new_conflict(
                        &pods,
                        &name,
                        format!(
                            "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}",
                            meta("/metadata/resourceVersion")
                        ),
                    ));
                }
                if pod.pointer("/metadata/deletionTimestamp").is_some_and(|t| !t.is_null()) {
                    return Err(errors::new_conflict(
                        &resource,
                        &name,
                        format!("pod {name} is being deleted, cannot be assigned to a host"),
                    ));
                }
                let bound = meta("/spec/nodeName");
                if !bound.is_empty() {
                    return Err(errors::new_conflict(
                        &resource,
                        &name,
                        format!("pod {name} is already assigned to node {bound:?}"),
                    ));
                }
                if pod
                    .pointer("/spec/schedulingGates")
                    .and_then(Value::as_array)
                    .is_some_and(|g| !g.is_empty())
                {
                    return Err(errors::new_conflict(
                        &resource,
                        &name,
                        format!("pod {name} has non-empty .spec.schedulingGates"),
                    ));
                }
                pod["spec"]["nodeName"] = Value::from(node.clone());
                if let Some(status) = pod.get_mut("status").and_then(Value::as_object_mut) {
                    status.remove("nominatedNodeName");
                }
                if !annotations.is_empty() {
                    let meta = &mut pod["metadata"];
                    if !meta["annotations"].is_object() {
                        meta["annotations"] = json!({});
                    }
                    for (k, v) in &annotations {
                        meta["annotations"][k] = v.clone();
                    }
                    // A binding's write bypasses the Pod strategy, so Go 1.37 drops the
                    // legacy init-container annotations of the merged ones here.
                    #[cfg(feature = "v1_37")]
                    super::template::drop_init_container_annotations(&mut pod, "/metadata");
                }
                // Go's copyLabelsWithOverwriting: the Binding's labels (with the
                // topology labels the PodTopologyLabels admission copied from the Node)
                // over the Pod's.
                if !labels.is_empty() {
                    let meta = &mut pod["metadata"];
                    if !meta["labels"].is_object() {
                        meta["labels"] = json!({});
                    }
                    for (k, v) in &labels {
                        meta["labels"][k] = v.clone();
                    }
                }
                set_scheduled(&mut pod);
                from_value(&scheme, &gvk, pod)
            })
            .await?;
        Ok(json!({"metadata": {}, "status": "Success", "code": 201}))
    }
}

/// `PodScheduled=True`.
fn set_scheduled(pod: &mut Value) {
    let now = Time::now().truncate_to_seconds().to_rfc3339();
    super::update_pod_condition(
        pod,
        json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": now}),
    );
}

#[cfg(test)]
mod tests {
    use super::validate_pod_binding;

    #[test]
    fn a_binding_names_a_node_target() {
        assert_eq!(
            validate_pod_binding("Pod", ""),
            [
                "target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"",
                "target.name: Required value",
            ]
        );
        assert!(validate_pod_binding("Node", "node-1").is_empty());
        // 1.37 checks a Node target's name; a target of another kind is refused for its
        // kind alone.
        let bad = validate_pod_binding("", "Node_1");
        if cfg!(feature = "v1_37") {
            assert_eq!(bad.len(), 1, "{bad:?}");
            assert!(
                bad[0].starts_with(
                    "target.name: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain"
                ),
                "{bad:?}"
            );
        } else {
            assert!(bad.is_empty(), "{bad:?}");
        }
        assert_eq!(validate_pod_binding("Pod", "Node_1").len(), 1);
    }
}
