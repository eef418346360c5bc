//! The codec factory's decoders default as Go's versioning codec does (decode, default,
//! convert), and code that defaults again by hand after them — as the API server and
//! `kapi` default what they decode — gets the same object: defaulting is idempotent.

use std::path::PathBuf;
use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersion;
use apimachinery::serializer::{CodecFactory, Decoder, DecoderExt, Encoder};
use k8s_types::apps::v1::Deployment;

/// A Deployment as an old manifest has it: `apps/v1beta2`, nothing defaulted.
const V1BETA2: &[u8] = br#"{"apiVersion":"apps/v1beta2","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

fn scheme() -> Arc<Scheme> {
    Arc::new(Scheme::from_registry().unwrap())
}

#[test]
fn an_old_deployment_is_read_as_apps_v1_with_its_defaults() {
    let scheme = scheme();
    let codecs = CodecFactory::new(scheme.clone());
    let decoder = codecs.universal_decoder(&[GroupVersion::new("apps", "v1")]);
    let deployment: Deployment = decoder.decode_as(V1BETA2).unwrap();
    let spec = &deployment.spec;
    // Go's defaults of apps/v1beta2 (SetDefaults_Deployment) and of the pod template.
    assert_eq!(spec.replicas, Some(1));
    assert_eq!(spec.revision_history_limit, Some(10));
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    assert_eq!(spec.strategy.r#type, "RollingUpdate");
    let container = &spec.template.spec.containers.as_deref().unwrap()[0];
    assert_eq!(container.image_pull_policy, "IfNotPresent");
    assert_eq!(container.termination_message_path, "/dev/termination-log");

    // Without defaulting, only converted.
    let plain: Deployment = CodecFactory::new(scheme)
        .without_defaulting()
        .universal_decoder(&[GroupVersion::new("apps", "v1")])
        .decode_as(V1BETA2)
        .unwrap();
    assert_eq!(plain.spec.replicas, None);
}

#[test]
fn defaulting_again_after_the_decoder_changes_nothing() {
    let scheme = scheme();
    let codecs = CodecFactory::new(scheme.clone());
    let (decoded, _) = codecs
        .universal_decoder(&[GroupVersion::new("apps", "v1")])
        .decode(V1BETA2, None, None)
        .unwrap();
    let mut again = decoded.deep_copy_object();
    scheme.default(&mut *again);
    assert_eq!(
        again.downcast_ref::<Deployment>(),
        decoded.downcast_ref::<Deployment>()
    );

    // By hand, as the API server does: decode in the request's version, default, convert,
    // then default the stored version too.
    let (mut by_hand, _) = codecs
        .universal_deserializer()
        .decode(V1BETA2, None, None)
        .unwrap();
    scheme.default(&mut *by_hand);
    let mut by_hand = scheme
        .convert_to_version(by_hand, &GroupVersion::new("apps", "v1"))
        .unwrap();
    scheme.default(&mut *by_hand);
    assert_eq!(
        by_hand.downcast_ref::<Deployment>(),
        decoded.downcast_ref::<Deployment>()
    );
}

fn testdata_dir() -> PathBuf {
    crate::release_data::testdata(k8s_types::RELEASE)
}

/// Every kind of Go's fixtures: decoded by the defaulting decoder in its own version, then
/// defaulted again by hand, it does not change.
#[test]
fn every_fixture_defaulted_by_the_decoder_is_a_fixed_point_of_defaulting() {
    let dir = testdata_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "fixtures not found at {}",
            dir.display()
        );
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return;
    };
    let scheme = scheme();
    let codecs = CodecFactory::new(scheme.clone());
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let (mut checked, mut changed) = (0usize, Vec::new());
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        // Each fixture stays in its own version: the decoder targets the version it is in.
        let Ok((raw, gvk)) = codecs.universal_deserializer().decode(&bytes, None, None) else {
            continue;
        };
        drop(raw);
        let decoder = codecs.universal_decoder(&[gvk.group_version()]);
        let (decoded, _) = decoder.decode(&bytes, None, None).unwrap();
        let once = codecs
            .legacy_codec(&[gvk.group_version()])
            .encode_to_vec(&*decoded)
            .unwrap();
        let mut twice = decoded.deep_copy_object();
        scheme.default(&mut *twice);
        let twice = codecs
            .legacy_codec(&[gvk.group_version()])
            .encode_to_vec(&*twice)
            .unwrap();
        checked += 1;
        if once != twice {
            changed.push(gvk.to_string());
        }
    }
    assert!(checked > 100, "only {checked} fixtures decoded");
    assert!(
        changed.is_empty(),
        "defaulted again, these changed: {changed:?}"
    );
}
