//! Why a strategic merge patch or a patch-metadata lookup failed.
//!
//! Go's errors are strings (`mergepatch.ErrNoMergeKey`, `ErrBadPatchType`, ...); here each
//! is a variant that also names where in the document it happened, as a field path such as
//! `spec.template.spec.containers[1]` (`<root>` for the top level). The messages keep Go's
//! wording after the path so that logs read the same.

use serde_json::Value;

/// The field path of the document's top level in error messages.
pub(crate) const ROOT_PATH: &str = "<root>";

/// Why [`LookupPatchMeta`](super::LookupPatchMeta) could not describe a field.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupPatchMetaError {
    /// The schema is an object with declared fields, none of them `field` (Go's
    /// `FieldNotFoundError`).
    #[error("unable to find api field {field:?} in {type_name}")]
    FieldNotFound {
        /// The schema looked in (a definition name such as `io.k8s.api.core.v1.PodSpec`).
        type_name: String,
        /// The JSON field asked for.
        field: String,
    },
    /// A `$ref` names no definition of the document.
    #[error("unable to resolve {reference} in the OpenAPI definitions")]
    UnresolvedReference {
        /// The reference as written, e.g. `#/definitions/io.k8s.api.core.v1.Pod`.
        reference: String,
    },
    /// `$ref`s lead back to where they started (or go deeper than any real schema does).
    #[error("the references from {reference} do not end in a schema")]
    ReferenceCycle {
        /// The reference at which the resolution gave up.
        reference: String,
    },
    /// An `x-kubernetes-patch-*` extension is not a string (Go's `ErrBadArgType`).
    #[error("{extension} of field {field:?} in {type_name} is {actual}, expected a string")]
    BadExtension {
        /// The schema holding the field.
        type_name: String,
        /// The field whose extension is malformed.
        field: String,
        /// `x-kubernetes-patch-strategy` or `x-kubernetes-patch-merge-key`.
        extension: &'static str,
        /// The JSON type found instead.
        actual: &'static str,
    },
    /// The OpenAPI document has neither `definitions` (v2) nor `components.schemas` (v3).
    #[error("the OpenAPI document has neither definitions nor components.schemas")]
    NoDefinitions,
    /// No definition is marked as the schema of this group, version and kind.
    #[error("no OpenAPI definition for {kind}")]
    UnknownKind {
        /// The kind asked for, as Go prints a `GroupVersionKind`.
        kind: String,
    },
    /// The root type given to the constructor is not among the definitions.
    #[error("no OpenAPI definition named {name:?}")]
    UnknownDefinition {
        /// The name asked for.
        name: String,
    },
}

/// Why [`strategic_merge_patch`](super::strategic_merge_patch) refused a patch. Every
/// variant names the field path it happened at.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StrategicMergePatchError {
    /// The original document or the patch is not a JSON object (Go's `ErrBadJSONDoc`).
    #[error("invalid JSON document: the {document} is {actual}, not an object")]
    NotAnObject {
        /// `original` or `patch`.
        document: &'static str,
        /// The JSON type found.
        actual: &'static str,
    },
    /// A value had another JSON type than the operation needs (Go's `ErrBadArgType`).
    #[error("{path}: expected {expected}, but received {actual}")]
    InvalidType {
        /// Where.
        path: String,
        /// The JSON type needed.
        expected: &'static str,
        /// The JSON type found.
        actual: &'static str,
    },
    /// An item of a list merged by key lacks the key (Go's `ErrNoMergeKey`).
    #[error("{path}: map: {item} does not contain declared merge key: {merge_key}")]
    NoMergeKey {
        /// The list.
        path: String,
        /// The merge key (`x-kubernetes-patch-merge-key`).
        merge_key: String,
        /// The item without it.
        item: Value,
    },
    /// A `$patch` directive other than `replace` or `delete` on an object, or other than
    /// `replace`, `delete` or `merge` in a list (Go's `ErrBadPatchType`).
    #[error("{path}: unknown patch type: {directive} in map: {map}")]
    UnknownPatchDirective {
        /// The object holding the directive.
        path: String,
        /// The directive's value.
        directive: Value,
        /// The object holding it.
        map: Value,
    },
    /// `$patch: merge` as a list item, which Go refuses.
    #[error("{path}: merging lists cannot yet be specified in the patch")]
    MergeDirectiveInList {
        /// The list.
        path: String,
    },
    /// A list holds lists (Go's `ErrNoListOfLists`).
    #[error("{path}: lists of lists are not supported")]
    ListOfLists {
        /// The list.
        path: String,
    },
    /// A merged list mixes item types (e.g. strings and objects, or integers and
    /// fractions, which Go decodes as different types).
    #[error("{path}: list element types are not identical: {first} and {other}")]
    MixedListElementTypes {
        /// The list.
        path: String,
        /// The type of the first item.
        first: &'static str,
        /// The first type that differs.
        other: &'static str,
    },
    /// A merged list starts with `null` (which Go cannot type).
    #[error("{path}: list element {index} is null")]
    NullListElement {
        /// The list.
        path: String,
        /// The item's index.
        index: usize,
    },
    /// A `$setElementOrder` list and its field are both empty lists.
    #[error("{path}: no elements in any of the given slices")]
    NoListElements {
        /// The list.
        path: String,
    },
    /// A list of objects has the merge strategy but no merge key.
    #[error("{path}: cannot merge lists without merge key for {type_name}")]
    MergeKeyNotDeclared {
        /// The list.
        path: String,
        /// The schema of its items.
        type_name: String,
    },
    /// An item met while looking up a merge key is not an object.
    #[error("{path}: value for key {index} is not a map")]
    ListItemNotAnObject {
        /// The list.
        path: String,
        /// The item's index.
        index: usize,
    },
    /// A `$deleteFromPrimitiveList` key is not `$deleteFromPrimitiveList/<field>` (Go's
    /// `ErrBadPatchFormatForPrimitiveList`).
    #[error("{path}: invalid patch format of primitive list: {key:?}")]
    BadPrimitiveListDirective {
        /// The object holding the key.
        path: String,
        /// The key.
        key: String,
    },
    /// A `$setElementOrder` key is not `$setElementOrder/<field>` (Go's
    /// `ErrBadPatchFormatForSetElementOrderList`).
    #[error("{path}: invalid patch format of setElementOrder list: {key:?}")]
    BadSetElementOrderDirective {
        /// The object holding the key.
        path: String,
        /// The key.
        key: String,
    },
    /// The patch list's items are not in the order of its `$setElementOrder` list, or not
    /// all in it.
    #[error(
        "{path}: the order in the patch list {patch_list} doesn't match $setElementOrder list {set_element_order}"
    )]
    SetElementOrderMismatch {
        /// The list.
        path: String,
        /// The patch's list.
        patch_list: Value,
        /// The `$setElementOrder` list.
        set_element_order: Value,
    },
    /// `$retainKeys` is not a list of field names (Go's `ErrBadPatchFormatForRetainKeys`).
    #[error("{path}: invalid patch format of retainKeys: {value}")]
    BadRetainKeys {
        /// The object holding `$retainKeys`.
        path: String,
        /// Its value.
        value: Value,
    },
    /// The patch sets a field that its `$retainKeys` list would clear (Go's
    /// `ErrBadPatchFormatForRetainKeys`).
    #[error(
        "{path}: invalid patch format of retainKeys: field {field:?} is not in the $retainKeys list"
    )]
    FieldNotInRetainKeys {
        /// The object holding `$retainKeys`.
        path: String,
        /// The field.
        field: String,
    },
    /// `x-kubernetes-patch-strategy` combines strategies Go does not know how to combine.
    #[error("{path}: unexpected patch strategy: {strategies:?}")]
    UnexpectedPatchStrategy {
        /// The field.
        path: String,
        /// The strategies declared.
        strategies: Vec<String>,
    },
    /// The schema could not describe a field.
    #[error("{path}: {source}")]
    Lookup {
        /// The field.
        path: String,
        /// Why.
        #[source]
        source: LookupPatchMetaError,
    },
}

impl StrategicMergePatchError {
    /// The HTTP status kube-apiserver answers a PATCH with when applying the patch fails
    /// this way (Go's `interpretStrategicMergePatchError`): 400 (`BadRequest`) for a
    /// malformed document or directive, 422 for lists of lists, and 500 (a `Status` with
    /// an empty reason and this error's message) for everything Go reports as a plain
    /// error.
    pub fn status_code(&self) -> u16 {
        match self {
            StrategicMergePatchError::NotAnObject { .. }
            | StrategicMergePatchError::BadPrimitiveListDirective { .. }
            | StrategicMergePatchError::BadRetainKeys { .. }
            | StrategicMergePatchError::FieldNotInRetainKeys { .. }
            | StrategicMergePatchError::BadSetElementOrderDirective { .. } => 400,
            StrategicMergePatchError::ListOfLists { .. } => 422,
            _ => 500,
        }
    }
}

/// The JSON type of `value`, for messages.
pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_path_and_keep_gos_wording() {
        let err = StrategicMergePatchError::NoMergeKey {
            path: "spec.containers".into(),
            merge_key: "name".into(),
            item: json!({"image": "x"}),
        };
        assert_eq!(
            err.to_string(),
            r#"spec.containers: map: {"image":"x"} does not contain declared merge key: name"#
        );
        let err = LookupPatchMetaError::FieldNotFound {
            type_name: "io.k8s.api.core.v1.PodSpec".into(),
            field: "nope".into(),
        };
        assert_eq!(
            err.to_string(),
            r#"unable to find api field "nope" in io.k8s.api.core.v1.PodSpec"#
        );
    }

    #[test]
    fn status_codes_are_kube_apiservers() {
        let path = || "spec".to_owned();
        let bad = StrategicMergePatchError::FieldNotInRetainKeys {
            path: path(),
            field: "x".into(),
        };
        assert_eq!(bad.status_code(), 400);
        assert_eq!(
            StrategicMergePatchError::ListOfLists { path: path() }.status_code(),
            422
        );
        let plain = StrategicMergePatchError::MergeDirectiveInList { path: path() };
        assert_eq!(plain.status_code(), 500);
    }

    #[test]
    fn json_types_separate_integers_from_fractions_as_go_decodes_them() {
        assert_eq!(json_type(&json!(1)), "integer");
        assert_eq!(json_type(&json!(-1)), "integer");
        assert_eq!(json_type(&json!(1.5)), "number");
        assert_eq!(json_type(&json!(null)), "null");
        assert_eq!(json_type(&json!([])), "array");
    }
}
