//! What the fuzz targets share: the scheme they decode through, and the comparisons
//! their round-trip properties use. The targets themselves are in `fuzz_targets/`; see
//! README.md for how they are built and run.

use std::sync::OnceLock;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{Decoder, Encoder};

/// The scheme every typed target decodes through: `k8s-types` as this crate builds it
/// (core, apps, batch, networking), built once per process.
pub fn scheme() -> &'static Scheme {
    static SCHEME: OnceLock<Scheme> = OnceLock::new();
    SCHEME.get_or_init(|| {
        let mut scheme = Scheme::new();
        if let Err(e) = k8s_types::register(&mut scheme) {
            // Not reachable from fuzz input: the registration is fixed at build time.
            panic!("k8s_types::register failed: {e}");
        }
        scheme
    })
}

/// The compact JSON Go writes for `obj`, the form objects are compared in, or why it
/// cannot be written.
pub fn try_json_of(obj: &dyn Object) -> Result<Vec<u8>, apimachinery::serializer::EncodeError> {
    JsonSerializer::new(scheme(), SerializerOptions::default()).encode_to_vec(obj)
}

/// [`try_json_of`] for objects decoded from JSON, which can always be written back.
pub fn json_of(obj: &dyn Object) -> Vec<u8> {
    match try_json_of(obj) {
        Ok(bytes) => bytes,
        // A decoded object that cannot be written back is a bug worth a crash report.
        Err(e) => panic!(
            "a decoded {} cannot be encoded as JSON: {e}",
            obj.type_name()
        ),
    }
}

/// Decode → encode → decode → encode through `codec` gives the same bytes the second
/// time: whatever the first decode made of the input, the codec reads its own output
/// back as the same object. `obj` is the first decode's result.
pub fn assert_round_trip<C: Encoder + Decoder>(codec: &C, obj: &dyn Object, what: &str) {
    let first = match codec.encode_to_vec(obj) {
        Ok(bytes) => bytes,
        Err(e) => panic!(
            "{what}: a decoded {} cannot be encoded: {e}",
            obj.type_name()
        ),
    };
    let (again, _) = match codec.decode(&first, None, None) {
        Ok(decoded) => decoded,
        Err(e) => panic!(
            "{what}: the encoding of a decoded {} does not decode: {e}\n{}",
            obj.type_name(),
            String::from_utf8_lossy(&first)
        ),
    };
    let second = match codec.encode_to_vec(&*again) {
        Ok(bytes) => bytes,
        Err(e) => panic!(
            "{what}: a re-decoded {} cannot be encoded: {e}",
            obj.type_name()
        ),
    };
    if first != second {
        panic!(
            "{what}: decode → encode → decode changed the object\nfirst:  {}\nsecond: {}",
            String::from_utf8_lossy(&first),
            String::from_utf8_lossy(&second)
        );
    }
}

/// Where Kubernetes' reference data is read at run time: `$K8S_API_DIR`, else the
/// `shared/k8s-api/v1.36` folder beside the repository (never copied into it).
pub fn k8s_api_dir() -> std::path::PathBuf {
    std::env::var_os("K8S_API_DIR").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/k8s-api/v1.36"),
        std::path::PathBuf::from,
    )
}

/// The `definitions` of the Kubernetes 1.36 `swagger.json`, read once, or `None` when
/// the reference data is not there (the patch target then uses no schema).
pub fn swagger_definitions() -> Option<&'static serde_json::Map<String, serde_json::Value>> {
    static DEFINITIONS: OnceLock<Option<serde_json::Map<String, serde_json::Value>>> =
        OnceLock::new();
    DEFINITIONS
        .get_or_init(|| {
            let text = std::fs::read(k8s_api_dir().join("swagger.json")).ok()?;
            let mut document: serde_json::Value = serde_json::from_slice(&text).ok()?;
            match document.get_mut("definitions")?.take() {
                serde_json::Value::Object(definitions) => Some(definitions),
                _ => None,
            }
        })
        .as_ref()
}

/// Whether two JSON texts are the same object once fields set to `null` or to an empty
/// list are dropped: Kubernetes' JSON reads a null field as an absent one, while a value
/// that only protobuf can carry (a present but zero `*metav1.Time`, as in Go) is written
/// as `null` and reads back absent; and protobuf's wire has no empty list apart from an
/// absent one, so a list written `[]` (a Go slice without `omitempty`, such as a Role's
/// `rules`) comes back from protobuf as nil, written `null`. Go behaves the same; this is
/// the equality the agreement of JSON and protobuf holds under.
pub fn same_json(a: &[u8], b: &[u8]) -> bool {
    fn without_nulls(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.retain(|_, v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()));
                map.values_mut().for_each(without_nulls);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(without_nulls),
            _ => {}
        }
    }
    match (
        serde_json::from_slice::<serde_json::Value>(a),
        serde_json::from_slice::<serde_json::Value>(b),
    ) {
        (Ok(mut a), Ok(mut b)) => {
            without_nulls(&mut a);
            without_nulls(&mut b);
            a == b
        }
        _ => a == b,
    }
}
