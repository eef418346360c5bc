//! EndpointSlices (Go's `pkg/registry/discovery/endpointslice`): they have neither spec
//! nor status, yet keep a `metadata.generation`, 1 on create and one more on each update
//! that changes anything but the metadata, or the labels (which the EndpointSlice
//! controllers and kube-proxy read the slice's service from).

use std::sync::Arc;

use apimachinery::api::errors::StatusError;
use apimachinery::runtime::{Object, Scheme};
use serde_json::Value;

use crate::registry::dependencies::Dependencies;
use crate::registry::rest::RestStorage;
use crate::registry::strategy::{Strategy, Subresource, prepare_for_update};
use crate::registry::{ResourceInfo, to_json};

/// Go's EndpointSlice strategy, as far as the generation goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct EndpointSliceStrategy;

impl Strategy for EndpointSliceStrategy {
    /// Go's `PrepareForCreate`: generation 1.
    fn prepare_for_create(
        &self,
        _scheme: &Scheme,
        _info: &ResourceInfo,
        mut obj: Box<dyn Object>,
    ) -> Result<Box<dyn Object>, StatusError> {
        if let Some(meta) = obj.meta_mut() {
            meta.set_generation(1);
        }
        Ok(obj)
    }

    /// Go's `PrepareForUpdate`: the stored generation, one more when anything but the
    /// metadata changed, or the labels did.
    fn prepare_for_update(
        &self,
        scheme: &Scheme,
        info: &ResourceInfo,
        old: &dyn Object,
        new: Box<dyn Object>,
        subresource: Subresource,
    ) -> Result<Box<dyn Object>, StatusError> {
        let mut new = prepare_for_update(scheme, info, old, new, subresource, |_, _, _| false)?;
        if changed(&to_json(old)?, &to_json(&*new)?) {
            let generation = old.meta().map_or(0, |m| m.generation());
            if let Some(meta) = new.meta_mut() {
                meta.set_generation(generation + 1);
            }
        }
        Ok(new)
    }
}

/// Whether `new` differs from `old` beyond its metadata, or in its labels.
fn changed(old: &Value, new: &Value) -> bool {
    let without_metadata = |v: &Value| -> Value {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("metadata");
        }
        v
    };
    let labels = |v: &Value| v.pointer("/metadata/labels").cloned().filter(non_empty);
    without_metadata(old) != without_metadata(new) || labels(old) != labels(new)
}

/// Whether a labels value holds any label (Go's semantic equality takes an empty map
/// for none).
fn non_empty(v: &Value) -> bool {
    v.as_object().is_some_and(|o| !o.is_empty())
}

/// The EndpointSlices' REST storage over `info`.
pub(super) fn storage(info: ResourceInfo, deps: &Dependencies) -> Arc<dyn RestStorage> {
    deps.standard(info, EndpointSliceStrategy)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::registry::from_value;
    use crate::registry::resource_info::resources_from_scheme;
    use k8s_types as _;
    use serde_json::json;

    fn slice(labels: Value, addresses: Value, generation: i64) -> Value {
        json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
            "metadata": {"name": "es", "namespace": "ns", "uid": "u", "resourceVersion": "5",
                "generation": generation, "labels": labels, "annotations": {"a": generation.to_string()}},
            "addressType": "IPv4", "endpoints": [{"addresses": addresses}]})
    }

    #[test]
    fn the_generation_is_1_on_create_and_grows_when_more_than_metadata_changes() {
        let mut scheme = Scheme::with_name("endpointslice-tests");
        scheme.add_registry().unwrap();
        let info = resources_from_scheme(&scheme)
            .remove(&("discovery.k8s.io".to_owned(), "endpointslices".to_owned()))
            .unwrap();
        let decode = |v: Value| from_value(&scheme, &info.storage_gvk, v).unwrap();
        let created = EndpointSliceStrategy
            .prepare_for_create(
                &scheme,
                &info,
                decode(slice(json!({}), json!(["10.0.0.1"]), 7)),
            )
            .unwrap();
        assert_eq!(created.meta().unwrap().generation(), 1);

        let old = decode(slice(json!({"a": "1"}), json!(["10.0.0.1"]), 3));
        let generation = |new: Value| {
            EndpointSliceStrategy
                .prepare_for_update(&scheme, &info, &*old, decode(new), Subresource::Main)
                .unwrap()
                .meta()
                .unwrap()
                .generation()
        };
        // Annotations, or a generation the client sent, change nothing.
        assert_eq!(
            generation(slice(json!({"a": "1"}), json!(["10.0.0.1"]), 9)),
            3
        );
        // Endpoints do, and labels do.
        assert_eq!(
            generation(slice(json!({"a": "1"}), json!(["10.0.0.2"]), 3)),
            4
        );
        assert_eq!(
            generation(slice(json!({"a": "2"}), json!(["10.0.0.1"]), 3)),
            4
        );
        assert_eq!(generation(slice(json!({}), json!(["10.0.0.1"]), 3)), 4);
    }
}
