//! Transforms applied to every object before the cache stores it (client-go's
//! `TransformFunc`, controller-runtime's `cache.Options.DefaultTransform`).
//!
//! Trimming what a controller never reads is the cheapest memory saving of a cache:
//! `metadata.managedFields` is often the largest part of an object's metadata and no
//! controller needs it, so [`strip_managed_fields`] is the default.

use std::sync::Arc;

use apimachinery::runtime::Object;

/// A function rewriting an object before it is stored and handed to event handlers.
pub type TransformFunc<T> = Arc<dyn Fn(T) -> T + Send + Sync>;

/// Clears `metadata.managedFields` (controller-runtime's `TransformStripManagedFields`).
pub fn strip_managed_fields<T: Object>(mut obj: T) -> T {
    // Set unconditionally: reading the field first would copy it.
    if let Some(meta) = obj.meta_mut() {
        meta.set_managed_fields(Vec::new());
    }
    obj
}

/// The default transform as a [`TransformFunc`]: [`strip_managed_fields`].
pub fn default_transform<T: Object>() -> TransformFunc<T> {
    Arc::new(strip_managed_fields::<T>)
}

/// Runs `first`, then `second` on its result.
pub fn chain<T: 'static>(first: TransformFunc<T>, second: TransformFunc<T>) -> TransformFunc<T> {
    Arc::new(move |obj| second(first(obj)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use apimachinery::apis::meta::v1::ObjectMetaAccessor;
    use apimachinery::runtime::Unstructured;
    use serde_json::json;

    #[test]
    fn strips_managed_fields_and_keeps_the_rest() {
        let obj = Unstructured::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "a", "labels": {"x": "y"},
                "managedFields": [{"manager": "kubectl", "operation": "Apply"}]},
            "data": {"k": "v"}}))
        .unwrap();
        let out = strip_managed_fields(obj);
        assert!(out.managed_fields().is_empty());
        assert_eq!(out.nested_string(&["data", "k"]).unwrap(), Some("v"));
        assert_eq!(
            out.nested_string(&["metadata", "labels", "x"]).unwrap(),
            Some("y")
        );
    }

    #[test]
    fn chain_runs_both_in_order() {
        let add: TransformFunc<Vec<u8>> = Arc::new(|mut v| {
            v.push(1);
            v
        });
        let double: TransformFunc<Vec<u8>> = Arc::new(|v| v.iter().map(|x| x * 2).collect());
        assert_eq!(chain(add, double)(vec![3]), vec![6, 2]);
    }
}
