//! What a `/status` write does to an object's metadata, kind by kind, as Go's status
//! strategies do it: most take the metadata written (their `PrepareForUpdate` copies
//! only the spec back), some keep the stored labels (Deployments), owner references
//! (Pods), what `metav1.ResetObjectMetaForStatus` keeps (the newer kinds), or the whole
//! stored metadata (FlowSchemas, PriorityLevelConfigurations, custom resources); and
//! their `GetResetFields` say which metadata server-side apply leaves unowned on
//! `/status` (usually what is kept; CRDs' say `metadata` though their strategy keeps
//! nothing, as it resets the new metadata with itself).
//!
//! Each [`Store`](super::Store) has its kind's rule (the built-in kinds' are listed in
//! one table, `registry::dependencies`, where their stores are made; custom resources'
//! is [`StatusMetadata::WHOLE`]); the store applies [`keep`] after the strategy's
//! `prepare_for_update` on every `/status` write, and adds the rule's unowned paths to
//! the strategy's reset fields for the field managers.

use apimachinery::runtime::Object;

/// The stored metadata a `/status` write keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// None: the write's labels, annotations, finalizers and owner references are
    /// stored (the server's own fields are kept for every write).
    Nothing,
    /// The labels (Go's Deployment status strategy).
    Labels,
    /// The owner references (Go's Pod status strategy: old kubelets corrupted them).
    OwnerReferences,
    /// Labels, annotations, finalizers and owner references (Go's
    /// `metav1.ResetObjectMetaForStatus`, and the APIService status strategy's list).
    ResetForStatus,
    /// All of it but the managed fields, which record the write (Go's strategies that
    /// copy the old `ObjectMeta` or the whole old object).
    AllButManagedFields,
}

/// A kind's `/status` metadata rule: what is kept, and the metadata paths its reset
/// fields name (left unowned by server-side apply on `/status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusMetadata {
    /// The stored metadata kept.
    pub kept: Kept,
    /// The metadata paths (`metadata`, `metadata.labels`) among the status strategy's
    /// reset fields.
    pub unowned: &'static [&'static str],
}

impl StatusMetadata {
    /// Go's default status strategy: the metadata written is stored and owned.
    pub const WRITTEN: StatusMetadata = StatusMetadata {
        kept: Kept::Nothing,
        unowned: &[],
    };

    /// `ResetObjectMetaForStatus` with `metadata` reset.
    pub const RESET: StatusMetadata = StatusMetadata {
        kept: Kept::ResetForStatus,
        unowned: &["metadata"],
    };

    /// The whole stored metadata, `metadata` reset (custom resources, FlowSchemas,
    /// PriorityLevelConfigurations).
    pub const WHOLE: StatusMetadata = StatusMetadata {
        kept: Kept::AllButManagedFields,
        unowned: &["metadata"],
    };
}

/// The stored metadata `rule` keeps, put back on `new` (a `/status` write over `old`).
pub fn keep(rule: StatusMetadata, old: &dyn Object, new: &mut dyn Object) {
    let (Some(old), Some(meta)) = (old.meta(), new.meta_mut()) else {
        return;
    };
    match rule.kept {
        Kept::Nothing => {}
        Kept::Labels => meta.set_labels(old.labels()),
        Kept::OwnerReferences => meta.set_owner_references(old.owner_references()),
        Kept::ResetForStatus | Kept::AllButManagedFields => {
            meta.set_labels(old.labels());
            meta.set_annotations(old.annotations());
            meta.set_finalizers(old.finalizers());
            meta.set_owner_references(old.owner_references());
            meta.set_deletion_timestamp(old.deletion_timestamp());
            meta.set_generation(old.generation());
            if rule.kept == Kept::AllButManagedFields {
                meta.set_uid(old.uid());
                meta.set_generate_name(old.generate_name());
                meta.set_deletion_grace_period_seconds(old.deletion_grace_period_seconds());
            }
        }
    }
}

/// [`Kept::ResetForStatus`]'s labels, annotations, finalizers and owner references
/// on JSON: the stored ones put back on `new` (for strategies that prepare a write as
/// JSON, such as a Pod's `/resize`, whose Go strategy calls `ResetObjectMetaForStatus`;
/// the server keeps the rest of the system fields on every write).
pub fn keep_json_for_status(new: &mut serde_json::Value, old: &serde_json::Value) {
    let (Some(meta), Some(old_meta)) = (
        new.get_mut("metadata")
            .and_then(serde_json::Value::as_object_mut),
        old.get("metadata").and_then(serde_json::Value::as_object),
    ) else {
        return;
    };
    for k in ["labels", "annotations", "finalizers", "ownerReferences"] {
        match old_meta.get(k) {
            Some(v) => meta.insert(k.into(), v.clone()),
            None => meta.remove(k),
        };
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use apimachinery::runtime::Unstructured;
    use serde_json::{Value, json};

    fn object(meta: Value) -> Unstructured {
        let Value::Object(map) = json!({"apiVersion": "v1", "kind": "X", "metadata": meta}) else {
            unreachable!()
        };
        Unstructured { object: map }
    }

    fn written(rule: StatusMetadata) -> Value {
        let old = object(json!({"name": "a", "uid": "u1", "generation": 2,
            "labels": {"l": "old"}, "annotations": {"a": "old"}, "finalizers": ["old"],
            "ownerReferences": [{"apiVersion": "v1", "kind": "X", "name": "o", "uid": "o1"}]}));
        let mut new = object(json!({"name": "a", "uid": "u2", "generation": 2,
            "labels": {"l": "new"}, "managedFields": [{"manager": "m", "operation": "Update"}]}));
        keep(rule, &old, &mut new);
        Value::Object(new.object)["metadata"].clone()
    }

    #[test]
    fn each_rule_keeps_its_part_of_the_stored_metadata() {
        let meta = written(StatusMetadata::WRITTEN);
        assert_eq!(meta["labels"], json!({"l": "new"}));
        assert!(meta.get("finalizers").is_none() && meta.get("annotations").is_none());
        let labels = written(StatusMetadata {
            kept: Kept::Labels,
            unowned: &["metadata.labels"],
        });
        assert_eq!(labels["labels"], json!({"l": "old"}));
        assert!(labels.get("annotations").is_none());
        let owners = written(StatusMetadata {
            kept: Kept::OwnerReferences,
            unowned: &[],
        });
        assert_eq!(owners["labels"], json!({"l": "new"}));
        assert_eq!(owners["ownerReferences"][0]["name"], "o");
        let reset = written(StatusMetadata::RESET);
        assert_eq!(
            (
                &reset["labels"],
                &reset["annotations"],
                &reset["finalizers"]
            ),
            (&json!({"l": "old"}), &json!({"a": "old"}), &json!(["old"]))
        );
        assert_eq!(
            (&reset["uid"], &reset["managedFields"][0]["manager"]),
            (&json!("u2"), &json!("m"))
        );
        let whole = written(StatusMetadata::WHOLE);
        assert_eq!(
            (&whole["uid"], &whole["labels"]),
            (&json!("u1"), &json!({"l": "old"}))
        );
        assert_eq!(whole["managedFields"][0]["manager"], "m");
    }
}
