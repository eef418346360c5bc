//! The strategic merge patch applier and differ (`util::strategicpatch`), without a
//! schema and with the OpenAPI schemas of Pod and Deployment from the reference
//! `swagger.json`. The input is the original document, a NUL byte, and the patch.
//! Properties: no panic; when a patch applies, the two-way patch computed from the
//! original to the result applies to the original to give the same result.
#![no_main]

use apimachinery::util::strategicpatch::{
    LookupPatchMeta, PatchMetaFromOpenApi, SchemalessPatchMeta, create_two_way_merge_patch,
    strategic_merge_patch,
};
use apimachinery_fuzz::swagger_definitions;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Whether a document holds what the differ cannot express: directive-like keys
/// (`$patch`, `$retainKeys`, ...) or keys of the directive prefixes, which a computed
/// patch would read as directives, and nulls, which a patch reads as "remove".
fn differ_can_express(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Array(items) => items.iter().all(differ_can_express),
        Value::Object(map) => map
            .iter()
            .all(|(k, v)| !k.starts_with('$') && differ_can_express(v)),
        _ => true,
    }
}

fn check(original: &Value, patch: &Value, schema: &dyn LookupPatchMeta, what: &str) {
    let Ok(patched) = strategic_merge_patch(original, patch, schema) else {
        return;
    };
    if !differ_can_express(original) || !differ_can_express(&patched) {
        return;
    }
    let Ok(two_way) = create_two_way_merge_patch(original, &patched, schema) else {
        return;
    };
    match strategic_merge_patch(original, &two_way, schema) {
        Ok(again) => assert!(
            again == patched,
            "{what}: the two-way patch {two_way} of {original} → {patched} gives {again}"
        ),
        Err(e) => {
            panic!("{what}: the two-way patch {two_way} of {original} → {patched} fails: {e}")
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|&b| b == 0) else {
        return;
    };
    let (Ok(original), Ok(patch)) = (
        serde_json::from_slice::<Value>(&data[..split]),
        serde_json::from_slice::<Value>(&data[split + 1..]),
    ) else {
        return;
    };
    check(&original, &patch, &SchemalessPatchMeta, "schemaless");
    if let Some(definitions) = swagger_definitions() {
        for root in ["io.k8s.api.core.v1.Pod", "io.k8s.api.apps.v1.Deployment"] {
            if let Ok(schema) = PatchMetaFromOpenApi::new(definitions, root) {
                check(&original, &patch, &schema, root);
            }
        }
    }
});
