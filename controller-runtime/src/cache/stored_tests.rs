//! The stored forms: every object comes back from its encoding equal to what was stored
//! (Go's fixtures of many kinds, objects with empty fields, unstructured content with
//! every JSON type), an encoded store answers every lookup and index as a shared one
//! does, and an entry that does not decode is an error, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use apimachinery::runtime::{Object, Unstructured};
use apimachinery::schema::GroupVersionKind;
use serde_json::json;

use super::store::{IndexFunc, Indexer, NAMESPACE_INDEX, StoreError};
use super::stored::StoreCodec;
use k8s_types::core::v1::{ConfigMap, Pod};
use k8s_types::meta::v1::PartialObjectMetadata;

/// Go's fixtures of the release (`target/k8s-api/v1.37/testdata`, or
/// `$K8S_API_TESTDATA`).
fn testdata() -> PathBuf {
    std::env::var_os("K8S_API_TESTDATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/k8s-api/v1.37/testdata")
        })
}

fn round_trip<T: Object + Default + PartialEq>(obj: &T) -> T {
    let codec = StoreCodec::<T>::protobuf().expect("a protobuf kind");
    let bytes = codec.encode(obj).expect("encodes");
    codec.decode(&bytes).expect("decodes")
}

/// Go's fixture of `T` (all fields set by Go's fuzzer) stores and reads back equal.
fn fixture_round_trips<T>(file: &str) -> bool
where
    T: Object + Default + PartialEq + serde::de::DeserializeOwned,
{
    let path = testdata().join(file);
    let Ok(text) = std::fs::read(&path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} missing",
            path.display()
        );
        eprintln!("note: {} not found; case skipped", path.display());
        return false;
    };
    let obj: T = serde_json::from_slice(&text).unwrap();
    assert_eq!(round_trip(&obj), obj, "{file}");
    true
}

#[test]
fn go_fixtures_of_many_kinds_round_trip() {
    use k8s_types::{apps, batch, coordination, core, events, networking, rbac, storage};
    let ran = [
        fixture_round_trips::<core::v1::ConfigMap>("core.v1.ConfigMap.json"),
        fixture_round_trips::<core::v1::Pod>("core.v1.Pod.json"),
        fixture_round_trips::<core::v1::Secret>("core.v1.Secret.json"),
        fixture_round_trips::<core::v1::Service>("core.v1.Service.json"),
        fixture_round_trips::<core::v1::Node>("core.v1.Node.json"),
        fixture_round_trips::<core::v1::Namespace>("core.v1.Namespace.json"),
        fixture_round_trips::<core::v1::PersistentVolume>("core.v1.PersistentVolume.json"),
        fixture_round_trips::<core::v1::Event>("core.v1.Event.json"),
        fixture_round_trips::<apps::v1::Deployment>("apps.v1.Deployment.json"),
        fixture_round_trips::<apps::v1::StatefulSet>("apps.v1.StatefulSet.json"),
        fixture_round_trips::<batch::v1::Job>("batch.v1.Job.json"),
        fixture_round_trips::<coordination::v1::Lease>("coordination.k8s.io.v1.Lease.json"),
        fixture_round_trips::<events::v1::Event>("events.k8s.io.v1.Event.json"),
        fixture_round_trips::<networking::v1::Ingress>("networking.k8s.io.v1.Ingress.json"),
        fixture_round_trips::<rbac::v1::ClusterRole>(
            "rbac.authorization.k8s.io.v1.ClusterRole.json",
        ),
        fixture_round_trips::<storage::v1::StorageClass>("storage.k8s.io.v1.StorageClass.json"),
        // (No CustomResourceDefinition: k8s.io/api's fixtures have none; its kinds live
        // in apiextensions-apiserver.)
    ];
    eprintln!(
        "{} of {} fixtures found",
        ran.iter().filter(|r| **r).count(),
        ran.len()
    );
}

/// `obj` with its own kind set, as every decoded object comes back (see
/// `type_meta_is_kept_and_an_empty_one_comes_back_set`).
fn with_kind<T: Object + Default>(mut obj: T) -> T {
    obj.set_group_version_kind(&T::default().group_version_kind());
    obj
}

#[test]
fn empty_and_sparse_objects_round_trip() {
    assert_eq!(
        round_trip(&ConfigMap::default()),
        with_kind(ConfigMap::default())
    );
    let mut cm = ConfigMap::default();
    cm.metadata.name = "a".into();
    cm.metadata.namespace = "ns".into();
    cm.data.insert("k".into(), String::new());
    cm.immutable = Some(false);
    let cm = with_kind(cm);
    assert_eq!(round_trip(&cm), cm);
    let mut pod = Pod::default();
    pod.metadata.name = "p".into();
    assert_eq!(round_trip(&pod), with_kind(pod));
}

#[test]
fn type_meta_is_kept_and_an_empty_one_comes_back_set() {
    let mut cm = ConfigMap::default();
    cm.metadata.name = "a".into();
    cm.set_group_version_kind(&GroupVersionKind::new("", "v1", "ConfigMap"));
    assert_eq!(round_trip(&cm), cm);
    // An empty TypeMeta reads back as the kind's own, as Go's cache reader sets it.
    let bare = ConfigMap::default();
    let back = round_trip(&bare);
    assert_eq!(back.type_meta.kind, "ConfigMap");
    assert_eq!(back.type_meta.api_version, "v1");
    // Metadata of another kind (a metadata-only informer's objects) names its kind.
    let mut meta = PartialObjectMetadata::default();
    meta.metadata.name = "w".into();
    meta.set_group_version_kind(&GroupVersionKind::new("example.com", "v1", "Widget"));
    let back = round_trip(&meta);
    assert_eq!(back, meta);
    assert_eq!(back.group_version_kind().kind, "Widget");
}

#[test]
fn unstructured_round_trips_every_json_type() {
    let obj = Unstructured::from_value(json!({
        "apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "labels": {"a": "b"}},
        "spec": {"int": 3, "neg": -7, "big": u64::MAX, "float": 3.0, "frac": 0.1,
            "exp": 1e300, "bool": true, "null": null, "list": [1, "two", {"three": []}],
            "unicode": "é\u{1F600}\"\\\n", "empty": {}}
    }))
    .unwrap();
    let codec = StoreCodec::json();
    let back = codec.decode(&codec.encode(&obj).unwrap()).unwrap();
    assert_eq!(back, obj);
}

#[test]
fn undecodable_entries_are_errors_not_panics() {
    let mut cm = ConfigMap::default();
    cm.metadata.name = "a".into();
    cm.metadata.labels.insert("app".into(), "web".into());
    cm.data.insert("key".into(), "value".into());
    let codec = StoreCodec::<ConfigMap>::protobuf().unwrap();
    let bytes = codec.encode(&cm).unwrap();
    // Every truncation, and every single-byte change, decodes or fails: never panics.
    for len in 0..bytes.len() {
        let _ = codec.decode(&bytes[..len]);
    }
    for at in 0..bytes.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut bad = bytes.to_vec();
            bad[at] = v;
            let _ = codec.decode(&bad);
        }
    }
    assert!(codec.decode(&[]).is_err());
    assert!(codec.decode(&[9]).is_err());
    assert!(codec.decode(&[1, 5, 0, b'a']).is_err());
    let json = StoreCodec::json();
    assert!(json.decode(b"[1]").is_err());
    assert!(json.decode(b"{\"a\":").is_err());
}

#[test]
fn a_type_without_protobuf_has_no_codec_and_is_held_shared() {
    use apimachinery::{ApiObject, apis::meta::v1::ObjectMeta};
    #[derive(ApiObject, Clone, Debug, Default, PartialEq)]
    #[api(group = "example.com", version = "v1", kind = "Gadget", namespaced)]
    pub struct Gadget {
        pub metadata: ObjectMeta,
    }
    assert!(StoreCodec::<Gadget>::protobuf().is_none());
    let store = Indexer::<Gadget>::with_codec(StoreCodec::protobuf());
    let mut g = Gadget::default();
    g.metadata.name = "g".into();
    let g = Arc::new(g);
    store.add(Arc::clone(&g));
    assert!(Arc::ptr_eq(&store.get_by_key("g").unwrap(), &g));
}

fn cm(ns: &str, name: &str, app: &str) -> Arc<ConfigMap> {
    let mut cm = ConfigMap::default();
    cm.metadata.namespace = ns.into();
    cm.metadata.name = name.into();
    cm.metadata.labels.insert("app".into(), app.into());
    cm.set_group_version_kind(&GroupVersionKind::new("", "v1", "ConfigMap"));
    Arc::new(cm)
}

fn app_index() -> IndexFunc<ConfigMap> {
    Arc::new(|o: &ConfigMap| o.metadata.labels.get("app").cloned().into_iter().collect())
}

fn keys(v: Vec<Arc<ConfigMap>>) -> BTreeSet<String> {
    v.iter()
        .map(|o| format!("{}/{}", o.metadata.namespace, o.metadata.name))
        .collect()
}

#[test]
fn an_encoded_store_answers_reads_and_indexes_as_a_shared_one() {
    let encoded = Indexer::with_codec(StoreCodec::protobuf());
    let shared = Indexer::new();
    for store in [&encoded, &shared] {
        store
            .add_indexers([("app".to_owned(), app_index())])
            .unwrap();
        store.add(cm("ns", "a", "web"));
        store.add(cm("ns", "b", "web"));
        store.add(cm("other", "c", "db"));
        // Moving an object to another value of an index, and deleting one.
        let old = store.update(cm("ns", "a", "db")).unwrap();
        assert_eq!(old.metadata.labels["app"], "web");
        assert_eq!(store.delete_by_key("other/c").unwrap().metadata.name, "c");
        store.add(cm("", "cluster", "db"));
    }
    assert!(encoded.codec().is_some());
    for (index, value) in [
        ("app", "web"),
        ("app", "db"),
        (NAMESPACE_INDEX, "ns"),
        (NAMESPACE_INDEX, "other"),
        (NAMESPACE_INDEX, ""),
    ] {
        assert_eq!(
            keys(encoded.try_by_index(index, value).unwrap()),
            keys(shared.by_index(index, value).unwrap()),
            "{index}={value}"
        );
        assert_eq!(
            encoded.index_keys(index, value).unwrap().len(),
            shared.index_keys(index, value).unwrap().len()
        );
    }
    assert_eq!(
        encoded.list_index_func_values("app").unwrap().len(),
        shared.list_index_func_values("app").unwrap().len()
    );
    assert_eq!(keys(encoded.try_list().unwrap()), keys(shared.list()));
    let got = encoded.try_get_by_key("ns/a").unwrap().unwrap();
    assert_eq!(*got, *cm("ns", "a", "db"));
    // Each read decodes a fresh object.
    assert!(!Arc::ptr_eq(&got, &encoded.get_by_key("ns/a").unwrap()));
    // Replace swaps items and indexes, and gives back the previous content decoded.
    let old = encoded.replace(vec![cm("ns", "z", "web")]);
    assert_eq!(old.len(), 3);
    assert_eq!(old["ns/b"].metadata.labels["app"], "web");
    assert_eq!(keys(encoded.by_index("app", "web").unwrap()).len(), 1);
    assert!(encoded.by_index("app", "db").unwrap().is_empty());
    assert!(encoded.index_keys(NAMESPACE_INDEX, "").unwrap().is_empty());
}

#[test]
fn an_index_added_to_an_encoded_store_covers_stored_objects() {
    let store = Indexer::with_codec(StoreCodec::protobuf());
    store.add(cm("ns", "a", "web"));
    store
        .add_indexers([("app".to_owned(), app_index())])
        .unwrap();
    assert_eq!(
        store.index_keys("app", "web").unwrap(),
        vec!["ns/a".to_owned()]
    );
}

#[test]
fn a_corrupted_entry_is_reported_by_every_read() {
    let store = Indexer::with_codec(StoreCodec::protobuf());
    store
        .add_indexers([("app".to_owned(), app_index())])
        .unwrap();
    store.add(cm("ns", "a", "web"));
    store.add(cm("ns", "b", "web"));
    store.corrupt_for_test("ns/a");
    let undecodable =
        |e: StoreError| matches!(e, StoreError::Undecodable { key, .. } if key == "ns/a");
    assert!(undecodable(store.try_get_by_key("ns/a").unwrap_err()));
    assert!(undecodable(store.try_list().unwrap_err()));
    assert!(undecodable(store.try_by_index("app", "web").unwrap_err()));
    assert!(store.add_indexers([("x".to_owned(), app_index())]).is_err());
    // The reads without an error type leave it out (and log it).
    assert!(store.get_by_key("ns/a").is_none());
    assert_eq!(keys(store.list()), BTreeSet::from(["ns/b".to_owned()]));
    // Replacing it removes it from every index though it does not decode.
    assert!(store.add(cm("ns", "a", "db")).is_none());
    assert_eq!(
        store.index_keys("app", "web").unwrap(),
        vec!["ns/b".to_owned()]
    );
    store.corrupt_for_test("ns/a");
    assert!(store.delete_by_key("ns/a").is_none());
    assert!(store.index_keys("app", "db").unwrap().is_empty());
    assert_eq!(store.len(), 1);
}

#[test]
fn what_the_benchmarks_objects_take_encoded() {
    // The cache benchmark's ConfigMap (benchmarks/src/objects.rs) after the default
    // transform, and Go's fixture Pod without managedFields: printed for the record,
    // asserted to read back equal.
    let mut cm = ConfigMap::default();
    cm.set_group_version_kind(&GroupVersionKind::new("", "v1", "ConfigMap"));
    cm.metadata.name = "cm-01234".into();
    cm.metadata.namespace = "default".into();
    cm.metadata.uid = "00000000-0000-4000-8000-000000001234".into();
    cm.metadata.resource_version = "12345".into();
    cm.metadata.labels.insert("app".into(), "app-4".into());
    cm.metadata.labels.insert("tier".into(), "backend".into());
    cm.data.insert(
        "config.yaml".into(),
        "replicas: 4\nimage: registry.example.com/app:1234\n".into(),
    );
    cm.data.insert("mode".into(), "production".into());
    let codec = StoreCodec::<ConfigMap>::protobuf().unwrap();
    let bytes = codec.encode(&cm).unwrap();
    assert_eq!(codec.decode(&bytes).unwrap(), cm);
    eprintln!("ConfigMap: {} bytes encoded", bytes.len());
    if let Ok(text) = std::fs::read(testdata().join("core.v1.Pod.json")) {
        let mut pod: Pod = serde_json::from_slice(&text).unwrap();
        pod.metadata.managed_fields.clear();
        let codec = StoreCodec::<Pod>::protobuf().unwrap();
        let bytes = codec.encode(&pod).unwrap();
        assert_eq!(codec.decode(&bytes).unwrap(), pod);
        eprintln!("Go's fixture Pod: {} bytes encoded", bytes.len());
    }
}
