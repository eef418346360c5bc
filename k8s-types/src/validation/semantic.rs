//! Go's `apiequality.Semantic.DeepEqual`, which the update rules compare old and new
//! values with: where it differs from `PartialEq` here, a nil list and an empty one are
//! equal (the external types keep that difference for the lists Go writes as `null`:
//! `Option<Vec<_>>`). Quantities already compare by amount.

use apimachinery::util::json::WriteJson;
use serde_json::Value;

use super::go_internal::json_text;

/// Whether Go's semantic equality holds: equal values, or values whose JSON differs only
/// by absent, `null` and empty lists.
pub(crate) fn semantic_eq<T: PartialEq + WriteJson>(a: &T, b: &T) -> bool {
    a == b || normalized(a) == normalized(b)
}

/// The value's JSON without its empty members: not generic, one copy for every type
/// (the JSON writer is reached through the trait object).
fn normalized(v: &dyn WriteJson) -> Option<Value> {
    // `from_slice`, as every other serde_json read of k8s-types: one reader type, one
    // copy of serde_json's parser.
    let mut value: Value = serde_json::from_slice(json_text(v).as_bytes()).ok()?;
    strip_empty(&mut value);
    Some(value)
}

/// Removes every member that is `null` or an empty list, at every depth.
fn strip_empty(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|_, m| !(m.is_null() || m.as_array().is_some_and(Vec::is_empty)));
            map.values_mut().for_each(strip_empty);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_empty),
        _ => {}
    }
}
