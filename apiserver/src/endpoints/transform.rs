//! The conversion of an answer an `Accept` header asks for (Go's `doTransformObject` in
//! `endpoints/handlers/response.go`): `PartialObjectMetadata` of one object,
//! `PartialObjectMetadataList` of a list, and Go's 406 answers when the one asked for
//! does not fit the answer.

use apimachinery::api::errors::{self, StatusError};
use apimachinery::apis::meta::v1::ObjectMetaAccessor;
use apimachinery::runtime::{Object, Scheme, Unstructured, UnstructuredList};
use apimachinery::schema::GroupVersionKind;
use serde_json::{Map, Value};

use super::negotiation::{Conversion, MetaVersion, not_acceptable_because};

/// `obj` converted as `conversion` asks; a `Status` passes unchanged, as in Go.
///
/// ```
/// use apimachinery::runtime::{Object, Scheme, Unstructured};
/// use apiserver::endpoints::negotiation::{Conversion, MetaVersion};
/// use apiserver::endpoints::transform::transform;
///
/// let widget: Unstructured = serde_json::from_value(serde_json::json!({
///     "apiVersion": "example.com/v1", "kind": "Widget",
///     "metadata": {"name": "w", "labels": {"a": "b"}}, "spec": {"size": 3},
/// }))?;
/// let meta = transform(&Scheme::new(), &widget, Conversion::PartialObjectMetadata(MetaVersion::V1))?;
/// assert_eq!(meta.group_version_kind().kind, "PartialObjectMetadata");
/// assert_eq!(meta.meta().map(|m| m.labels().len()), Some(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn transform(
    scheme: &Scheme,
    obj: &dyn Object,
    conversion: Conversion,
) -> Result<Box<dyn Object>, StatusError> {
    let gvk = obj.group_version_kind();
    if gvk.group.is_empty() && gvk.kind == "Status" {
        return Ok(obj.deep_copy_object());
    }
    match conversion {
        Conversion::PartialObjectMetadata(version) => {
            as_partial_object_metadata(scheme, obj, version)
        }
        Conversion::PartialObjectMetadataList(version) => {
            as_partial_object_metadata_list(scheme, obj, version)
        }
    }
}

/// Whether an answer of a list (`list`) or of one object can be converted as
/// `conversion` asks; the error is Go's 406 for the mismatch. Writes check this before
/// they write, so that an answer that cannot be given leaves nothing written.
pub fn check_fits(conversion: Conversion, list: bool, type_name: &str) -> Result<(), StatusError> {
    match (conversion, list) {
        (Conversion::PartialObjectMetadata(_), true) => Err(not_acceptable_because(format!(
            "you requested PartialObjectMetadata, but the requested object is a list ({type_name})"
        ))),
        (Conversion::PartialObjectMetadataList(_), false) => Err(not_acceptable_because(format!(
            "you requested PartialObjectMetadataList, but the requested object is not a list ({type_name})"
        ))),
        _ => Ok(()),
    }
}

fn as_partial_object_metadata(
    scheme: &Scheme,
    obj: &dyn Object,
    version: MetaVersion,
) -> Result<Box<dyn Object>, StatusError> {
    check_fits(
        Conversion::PartialObjectMetadata(version),
        obj.as_list().is_some(),
        &go_type_name(obj),
    )?;
    partial(scheme, obj, version)
}

fn as_partial_object_metadata_list(
    scheme: &Scheme,
    obj: &dyn Object,
    version: MetaVersion,
) -> Result<Box<dyn Object>, StatusError> {
    let conversion = Conversion::PartialObjectMetadataList(version);
    check_fits(conversion, obj.as_list().is_some(), &go_type_name(obj))?;
    let Some(items) = obj.as_list() else {
        return Err(errors::new_internal_error(
            "a single object converted as a list",
        ));
    };
    let list_gvk = conversion.group_version_kind();
    let mut list = new_object(scheme, &list_gvk, true)?;
    // Go builds the list afresh: no items is `items: null`, as its encoder writes a nil
    // slice.
    let out = list.as_list_mut().ok_or_else(|| {
        errors::new_internal_error(format!(
            "{list_gvk} is registered with a type that is not a list"
        ))
    })?;
    for item in items.items() {
        let partial = partial(scheme, item, version)?;
        out.push_item(partial).map_err(|_| {
            errors::new_internal_error(format!("{list_gvk} does not take its items"))
        })?;
    }
    if let (Some(from), Some(to)) = (obj.list_meta(), list.list_meta_mut()) {
        to.set_resource_version(from.resource_version());
        to.set_continue_token(from.continue_token());
        to.set_remaining_item_count(from.remaining_item_count());
    }
    Ok(list)
}

/// The `PartialObjectMetadata` of one object (Go's `meta.AsPartialObjectMetadata`).
fn partial(
    scheme: &Scheme,
    obj: &dyn Object,
    version: MetaVersion,
) -> Result<Box<dyn Object>, StatusError> {
    let gvk = Conversion::PartialObjectMetadata(version).group_version_kind();
    let from = obj.meta().ok_or_else(|| {
        errors::new_internal_error(format!(
            "{} has no metadata to answer PartialObjectMetadata with",
            obj.group_version_kind()
        ))
    })?;
    let mut out = new_object(scheme, &gvk, false)?;
    let to = out.meta_mut().ok_or_else(|| {
        errors::new_internal_error(format!("{gvk} is registered with a type without metadata"))
    })?;
    copy_meta(from, to);
    Ok(out)
}

/// Every field of Go's `AsPartialObjectMetadata` but `selfLink`, which this server never
/// sets.
fn copy_meta(from: &dyn ObjectMetaAccessor, to: &mut dyn ObjectMetaAccessor) {
    to.set_name(from.name());
    to.set_generate_name(from.generate_name());
    to.set_namespace(from.namespace());
    to.set_uid(from.uid());
    to.set_resource_version(from.resource_version());
    to.set_generation(from.generation());
    to.set_creation_timestamp(from.creation_timestamp());
    to.set_deletion_timestamp(from.deletion_timestamp());
    to.set_deletion_grace_period_seconds(from.deletion_grace_period_seconds());
    to.set_labels(from.labels());
    to.set_annotations(from.annotations());
    to.set_owner_references(from.owner_references());
    to.set_finalizers(from.finalizers());
    to.set_managed_fields(from.managed_fields());
}

/// A new object of `gvk`: the scheme's type (`k8s_types::meta::v1::PartialObjectMetadata`
/// and its lists, registered by `k8s_types::register`), or, for a scheme without
/// `meta.k8s.io`, an unstructured one, which JSON and YAML answers write the same.
fn new_object(
    scheme: &Scheme,
    gvk: &GroupVersionKind,
    list: bool,
) -> Result<Box<dyn Object>, StatusError> {
    if scheme.recognizes(gvk) {
        let mut obj = scheme
            .new_object(gvk)
            .map_err(|e| errors::new_internal_error(format!("creating {gvk}: {e}")))?;
        obj.set_group_version_kind(gvk);
        return Ok(obj);
    }
    let (api_version, kind) = gvk.to_api_version_and_kind();
    let mut map = Map::new();
    map.insert("apiVersion".into(), Value::from(api_version));
    map.insert("kind".into(), Value::from(kind.to_owned()));
    map.insert("metadata".into(), Value::Object(Map::new()));
    if !list {
        return Ok(Box::new(Unstructured::new(map)));
    }
    map.insert("items".into(), Value::Array(Vec::new()));
    UnstructuredList::from_map(map)
        .map(|l| Box::new(l) as Box<dyn Object>)
        .map_err(|e| errors::new_internal_error(format!("creating {gvk}: {e}")))
}

/// The Go type an answer of this object's kind is before it is encoded (what Go's
/// messages name with `%T`): the internal type of a built-in kind, whose package is
/// its group's first label (`core` for the core group and events), and
/// `unstructured.Unstructured` or `UnstructuredList` for a custom resource.
pub fn go_type_name(obj: &dyn Object) -> String {
    let gvk = obj.group_version_kind();
    let list = obj.as_list().is_some();
    if obj.is_unstructured() {
        let kind = if list {
            "UnstructuredList"
        } else {
            "Unstructured"
        };
        return format!("*unstructured.{kind}");
    }
    go_internal_type_name(&gvk.group, &gvk.kind)
}

/// The internal Go type of a built-in kind (`*core.Pod`, `*apps.DeploymentList`).
pub fn go_internal_type_name(group: &str, kind: &str) -> String {
    let package = match group {
        "" | "events.k8s.io" => "core",
        "internal.apiserver.k8s.io" => "apiserverinternal",
        other => other.split('.').next().unwrap_or(other),
    };
    format!("*{package}.{kind}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn unstructured(v: Value) -> Unstructured {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn metadata_alone_in_the_asked_version() {
        let obj = unstructured(json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "namespace": "ns", "uid": "u1", "resourceVersion": "7",
                "generation": 2, "labels": {"a": "b"}, "finalizers": ["f"],
                "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u0"}]},
            "spec": {"size": 3},
        }));
        for (version, api_version) in [
            (MetaVersion::V1, "meta.k8s.io/v1"),
            (MetaVersion::V1beta1, "meta.k8s.io/v1beta1"),
        ] {
            let out = transform(
                &Scheme::new(),
                &obj,
                Conversion::PartialObjectMetadata(version),
            )
            .unwrap();
            let v = serde_json::to_value(out.downcast_ref::<Unstructured>().unwrap()).unwrap();
            assert_eq!(v["apiVersion"], api_version);
            assert_eq!(v["kind"], "PartialObjectMetadata");
            assert_eq!(v["metadata"]["name"], "w");
            assert_eq!(v["metadata"]["uid"], "u1");
            assert_eq!(v["metadata"]["resourceVersion"], "7");
            assert_eq!(v["metadata"]["generation"], 2);
            assert_eq!(v["metadata"]["labels"], json!({"a": "b"}));
            assert_eq!(v["metadata"]["finalizers"], json!(["f"]));
            assert_eq!(v["metadata"]["ownerReferences"][0]["name"], "c");
            assert!(v.get("spec").is_none(), "{v}");
        }
    }

    #[test]
    fn lists_keep_their_metadata_and_items_their_kind() {
        let list = UnstructuredList::from_map(
            json!({
                "apiVersion": "example.com/v1", "kind": "WidgetList",
                "metadata": {"resourceVersion": "9", "continue": "c1", "remainingItemCount": 4},
                "items": [
                    {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "a"}, "spec": {}},
                    {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "b"}},
                ],
            })
            .as_object()
            .unwrap()
            .clone(),
        )
        .unwrap();
        let out = transform(
            &Scheme::new(),
            &list,
            Conversion::PartialObjectMetadataList(MetaVersion::V1),
        )
        .unwrap();
        assert_eq!(out.group_version_kind().kind, "PartialObjectMetadataList");
        let lm = out.list_meta().unwrap();
        assert_eq!(lm.resource_version(), "9");
        assert_eq!(lm.continue_token(), "c1");
        assert_eq!(lm.remaining_item_count(), Some(4));
        let items = out.as_list().unwrap().items();
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].meta().unwrap().name(), "b");
        assert_eq!(
            items[0].group_version_kind(),
            GroupVersionKind::new("meta.k8s.io", "v1", "PartialObjectMetadata")
        );
    }

    #[test]
    fn a_mismatched_kind_is_gos_406() {
        let obj = unstructured(
            json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}),
        );
        let e = transform(
            &Scheme::new(),
            &obj,
            Conversion::PartialObjectMetadataList(MetaVersion::V1),
        )
        .err()
        .unwrap();
        assert_eq!(e.code(), 406);
        assert_eq!(e.status.reason, "NotAcceptable");
        assert_eq!(
            e.status.message,
            "you requested PartialObjectMetadataList, but the requested object is not a list (*unstructured.Unstructured)"
        );
        let list = UnstructuredList::from_map(
            json!({"apiVersion": "example.com/v1", "kind": "WidgetList", "metadata": {}, "items": []})
                .as_object()
                .unwrap()
                .clone(),
        )
        .unwrap();
        let e = transform(
            &Scheme::new(),
            &list,
            Conversion::PartialObjectMetadata(MetaVersion::V1beta1),
        )
        .err()
        .unwrap();
        assert_eq!(
            e.status.message,
            "you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)"
        );
    }

    #[test]
    fn go_type_names() {
        assert_eq!(go_internal_type_name("", "PodList"), "*core.PodList");
        assert_eq!(
            go_internal_type_name("apps", "Deployment"),
            "*apps.Deployment"
        );
        assert_eq!(
            go_internal_type_name("rbac.authorization.k8s.io", "Role"),
            "*rbac.Role"
        );
        assert_eq!(
            go_internal_type_name("events.k8s.io", "Event"),
            "*core.Event"
        );
    }
}
