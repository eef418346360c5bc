//! Old and hand-written manifests decode as Go decodes them, through the scheme's
//! codecs: `null` where Go allows it, required structs missing, empty strings in pointer
//! fields; a value of the wrong type is an error naming its JSON path. Each then writes
//! what Go writes for the object it decoded, in JSON and protobuf.

use apimachinery::proto::{decode_message, encode_message};
use apimachinery::runtime::Scheme;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{Decoder, Encoder};
use k8s_types::apps::v1::Deployment;
use k8s_types::networking::v1::Ingress;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn scheme() -> Result<Scheme, Box<dyn std::error::Error>> {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme)?;
    Ok(scheme)
}

fn json(scheme: &Scheme) -> JsonSerializer<'_> {
    JsonSerializer::new(
        scheme,
        SerializerOptions {
            yaml: false,
            pretty: false,
            strict: false,
        },
    )
}

/// Decodes `text` through the scheme and re-encodes it as compact JSON.
fn round_trip(text: &str) -> Result<String, Box<dyn std::error::Error>> {
    let scheme = scheme()?;
    let codec = json(&scheme);
    let (obj, _) = codec.decode(text.as_bytes(), None, None)?;
    let out = codec.encode_to_vec(obj.as_ref())?;
    Ok(String::from_utf8(out)?.trim_end().to_owned())
}

#[test]
fn null_in_a_value_field_leaves_the_zero_value_and_go_writes_it_back() -> TestResult {
    // `spec: null` and a missing `status`: Go leaves both structs zero and writes them.
    let out = round_trip(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":null}"#,
    )?;
    assert_eq!(
        out,
        r#"{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{"selector":null,"template":{"metadata":{},"spec":{"containers":null}},"strategy":{}},"status":{}}"#
    );
    Ok(())
}

#[test]
fn null_in_pointers_and_slices_is_nil_and_empty_slices_stay_empty() -> TestResult {
    let d: Deployment = serde_json::from_str(
        r#"{"spec":{"replicas":null,"selector":null,"template":{"spec":{"containers":[],"volumes":null}}}}"#,
    )?;
    assert_eq!(d.spec.replicas, None);
    assert_eq!(d.spec.selector, None);
    // Go's `containers` (no omitempty) tells `[]` from nil; `volumes` (omitempty) does not.
    assert_eq!(d.spec.template.spec.containers, Some(Vec::new()));
    assert!(d.spec.template.spec.volumes.is_empty());
    let text = serde_json::to_string(&d.spec.template.spec)?;
    assert_eq!(text, r#"{"containers":[]}"#);
    // Protobuf cannot tell `[]` from nil: Go reads it back as nil, and so does this.
    let back: k8s_types::core::v1::PodSpec =
        decode_message(&encode_message(&d.spec.template.spec))?;
    assert_eq!(back.containers, None);
    Ok(())
}

#[test]
fn an_empty_string_in_a_pointer_field_is_kept() -> TestResult {
    let ing: Ingress = serde_json::from_str(
        r#"{"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"","backend":{}}]}}]}}"#,
    )?;
    let path = ing.spec.rules[0]
        .http
        .as_ref()
        .and_then(|h| h.paths.as_ref())
        .and_then(|p| p.first())
        .ok_or("no path")?;
    assert_eq!(path.path_type.as_deref(), Some(""));
    let text = serde_json::to_string(path)?;
    assert_eq!(text, r#"{"path":"/","pathType":"","backend":{}}"#);
    // Protobuf writes a set pointer even when it points at "".
    let bytes = encode_message(path);
    let back: k8s_types::networking::v1::HTTPIngressPath = decode_message(&bytes)?;
    assert_eq!(back.path_type.as_deref(), Some(""));
    Ok(())
}

#[test]
fn bytes_tell_nil_from_empty_on_the_wire() -> TestResult {
    use k8s_types::certificates::v1::CertificateSigningRequestSpec;
    // `request` is a []byte without omitempty: nil is `null`, empty is "".
    let nil = CertificateSigningRequestSpec::default();
    assert!(serde_json::to_string(&nil)?.starts_with(r#"{"request":null,"#));
    // Fields go in ascending number: a first key other than field 1's (0x0a) means no
    // field 1.
    assert!(!encode_message(&nil).starts_with(&[0x0a]));
    let empty: CertificateSigningRequestSpec = serde_json::from_str(r#"{"request":""}"#)?;
    assert_eq!(empty.request.as_ref().map(|b| b.0.len()), Some(0));
    assert!(serde_json::to_string(&empty)?.starts_with(r#"{"request":"","#));
    // Field 1, length 0: written because set.
    assert!(encode_message(&empty).starts_with(&[0x0a, 0x00]));
    let back: CertificateSigningRequestSpec = decode_message(&encode_message(&empty))?;
    assert_eq!(back.request, empty.request);
    Ok(())
}

#[test]
fn wrong_types_are_errors_naming_the_json_path() -> TestResult {
    let scheme = scheme()?;
    let codec = json(&scheme);
    for (text, path) in [
        (
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":"three"}}"#,
            "spec.replicas",
        ),
        (
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":{"spec":{"containers":{}}}}}"#,
            "spec.template.spec.containers",
        ),
        (
            r#"{"apiVersion":"apps/v1","kind":"Deployment","spec":{"template":{"spec":{"containers":[{"ports":[{"containerPort":1.5}]}]}}}}"#,
            "spec.template.spec.containers[0].ports[0].containerPort",
        ),
    ] {
        let Err(err) = codec.decode(text.as_bytes(), None, None) else {
            return Err(format!("{text} decoded").into());
        };
        assert!(err.to_string().contains(path), "{path}: {err}");
    }
    Ok(())
}
