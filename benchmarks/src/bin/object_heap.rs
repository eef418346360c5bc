//! Where the bytes of one decoded object go (issue 18): the live heap a counting global
//! allocator sees for one decoded Pod of Go's fixture (and one cache benchmark
//! ConfigMap), ours against k8s-openapi's, with
//!
//! 1. `size_of` of the structs a Pod is made of, in both libraries;
//! 2. the heap bytes and allocations of the whole object, decoded from JSON (ours both
//!    through serde and through `ReadJson`, as the Scheme reads it) and (ours) from
//!    protobuf, the `Box`/`Arc` the cache keeps it in included;
//! 3. a breakdown by subtree: the bytes a subtree costs are those of the whole object
//!    minus those of the same object decoded with the subtree removed from its JSON
//!    (`spec.containers[].resources`: from every container), so the same paths are
//!    measured in both libraries without knowing either's field shapes.
//!
//! The counts are deterministic (they do not depend on timing or the build profile).
//! Usage: `cargo run --bin object_heap` (from `benchmarks/`, `K8S_API_TESTDATA` set).

use std::alloc::System;
use std::mem::size_of;

use serde_json::Value;
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Live heap bytes and live allocations. stats_alloc already adds a growing `realloc`'s
/// difference to `bytes_allocated` (a shrinking one's to `bytes_deallocated`).
fn live() -> (i64, i64) {
    let s = GLOBAL.stats();
    (
        s.bytes_allocated as i64 - s.bytes_deallocated as i64,
        s.allocations as i64 - s.deallocations as i64,
    )
}

/// The heap `make` leaves behind in the value it returns (its transient allocations are
/// freed before the second count), and the allocations that hold it.
fn retained<T>(make: impl FnOnce() -> Result<T, Error>) -> Result<(i64, i64), Error> {
    let (b0, a0) = live();
    let kept = make()?;
    let (b1, a1) = live();
    drop(kept);
    Ok((b1 - b0, a1 - a0))
}

/// One decoder under test: JSON bytes in, a boxed object out.
type Decode = fn(&[u8]) -> Result<(i64, i64), Error>;

fn ours_json<T: serde::de::DeserializeOwned>(json: &[u8]) -> Result<(i64, i64), Error> {
    retained(|| Ok(Box::new(serde_json::from_slice::<T>(json)?)))
}

/// Ours through `ReadJson`: how the Scheme, and so the client and its cache, reads JSON.
fn ours_read_json<T: apimachinery::runtime::json_reader::ReadJson>(
    json: &[u8],
) -> Result<(i64, i64), Error> {
    use apimachinery::runtime::json_reader::read_slice_tracking;
    retained(|| Ok(Box::new(read_slice_tracking::<T>(json, false)?.value)))
}

/// Ours through protobuf, as the cache receives built-in kinds: the JSON decoded and
/// encoded outside the count, the protobuf message decoded inside it.
fn ours_protobuf<T>(json: &[u8]) -> Result<(i64, i64), Error>
where
    T: serde::de::DeserializeOwned + apimachinery::proto::Message + Default,
{
    let typed: T = serde_json::from_slice(json)?;
    let bytes = apimachinery::proto::encode_message(&typed);
    drop(typed);
    retained(|| Ok(Box::new(apimachinery::proto::decode_message::<T>(&bytes)?)))
}

/// k8s-openapi reading the JSON our server writes for the object (our typed decode of
/// the input, written back by our JSON encoder), as kube-runtime reads it from our server.
fn peer_json_from_ours<O, T>(json: &[u8]) -> Result<(i64, i64), Error>
where
    O: serde::de::DeserializeOwned + serde::Serialize,
    T: serde::de::DeserializeOwned,
{
    let ours: O = serde_json::from_slice(json)?;
    let written = serde_json::to_vec(&ours)?;
    drop(ours);
    retained(|| Ok(Box::new(serde_json::from_slice::<T>(&written)?)))
}

/// A clone of k8s-openapi's decoded object: what kube-runtime's reflector store keeps
/// (it sees each watch event by reference and stores `Arc::new(obj.clone())`), with the
/// exact capacities a clone has.
fn peer_json_cloned<T: serde::de::DeserializeOwned + Clone>(
    json: &[u8],
) -> Result<(i64, i64), Error> {
    let decoded: T = serde_json::from_slice(json)?;
    retained(|| Ok(Box::new(decoded.clone())))
}

fn peer_json<T: serde::de::DeserializeOwned>(json: &[u8]) -> Result<(i64, i64), Error> {
    retained(|| Ok(Box::new(serde_json::from_slice::<T>(json)?)))
}

/// Removes `path` (`a.b[].c`: `[]` applies the rest to every element) from `value`.
fn remove(value: &mut Value, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let (key, each) = match first.strip_suffix("[]") {
        Some(key) => (key, true),
        None => (*first, false),
    };
    let Some(obj) = value.as_object_mut() else {
        return;
    };
    if rest.is_empty() && !each {
        obj.remove(key);
        return;
    }
    let Some(child) = obj.get_mut(key) else {
        return;
    };
    if each {
        if let Some(items) = child.as_array_mut() {
            for item in items {
                if rest.is_empty() {
                    *item = Value::Object(Default::default());
                } else {
                    remove(item, rest);
                }
            }
        }
    } else {
        remove(child, rest);
    }
}

fn without(value: &Value, path: &str) -> Result<Vec<u8>, Error> {
    let mut v = value.clone();
    remove(&mut v, &path.split('.').collect::<Vec<_>>());
    Ok(serde_json::to_vec(&v)?)
}

const POD_PATHS: &[&str] = &[
    "metadata",
    "metadata.managedFields",
    "metadata.labels",
    "metadata.annotations",
    "metadata.ownerReferences",
    "spec",
    "spec.volumes",
    "spec.containers",
    "spec.initContainers",
    "spec.ephemeralContainers",
    "spec.containers[].resources",
    "spec.containers[].securityContext",
    "spec.containers[].livenessProbe",
    "spec.containers[].readinessProbe",
    "spec.containers[].startupProbe",
    "spec.containers[].lifecycle",
    "spec.containers[].env",
    "spec.containers[].envFrom",
    "spec.containers[].ports",
    "spec.containers[].volumeMounts",
    "spec.affinity",
    "spec.securityContext",
    "spec.topologySpreadConstraints",
    "spec.overhead",
    "spec.resources",
    "status",
    "status.containerStatuses",
    "status.initContainerStatuses",
    "status.ephemeralContainerStatuses",
    "status.conditions",
    "status.allocatedResources",
    "status.resources",
];

fn sizes() {
    use k8s_openapi::api::core::v1 as p;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1 as pm;
    use k8s_types::core::v1 as o;
    let rows: &[(&str, usize, usize)] = &[
        ("Pod", size_of::<o::Pod>(), size_of::<p::Pod>()),
        ("PodSpec", size_of::<o::PodSpec>(), size_of::<p::PodSpec>()),
        (
            "PodStatus",
            size_of::<o::PodStatus>(),
            size_of::<p::PodStatus>(),
        ),
        (
            "Container",
            size_of::<o::Container>(),
            size_of::<p::Container>(),
        ),
        (
            "EphemeralContainer",
            size_of::<o::EphemeralContainer>(),
            size_of::<p::EphemeralContainer>(),
        ),
        (
            "ContainerStatus",
            size_of::<o::ContainerStatus>(),
            size_of::<p::ContainerStatus>(),
        ),
        ("Volume", size_of::<o::Volume>(), size_of::<p::Volume>()),
        ("Probe", size_of::<o::Probe>(), size_of::<p::Probe>()),
        (
            "SecurityContext",
            size_of::<o::SecurityContext>(),
            size_of::<p::SecurityContext>(),
        ),
        (
            "ResourceRequirements",
            size_of::<o::ResourceRequirements>(),
            size_of::<p::ResourceRequirements>(),
        ),
        (
            "Affinity",
            size_of::<o::Affinity>(),
            size_of::<p::Affinity>(),
        ),
        (
            "ObjectMeta",
            size_of::<apimachinery::apis::meta::v1::ObjectMeta>(),
            size_of::<pm::ObjectMeta>(),
        ),
        (
            "ManagedFieldsEntry",
            size_of::<apimachinery::apis::meta::v1::ManagedFieldsEntry>(),
            size_of::<pm::ManagedFieldsEntry>(),
        ),
        (
            "Quantity",
            size_of::<apimachinery::api::resource::Quantity>(),
            size_of::<k8s_openapi::apimachinery::pkg::api::resource::Quantity>(),
        ),
        (
            "Time",
            size_of::<apimachinery::apis::meta::v1::Time>(),
            size_of::<pm::Time>(),
        ),
        (
            "Option<Time>",
            size_of::<Option<apimachinery::apis::meta::v1::Time>>(),
            size_of::<Option<pm::Time>>(),
        ),
        (
            "IntOrString",
            size_of::<apimachinery::util::intstr::IntOrString>(),
            size_of::<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>(),
        ),
        (
            "BTreeMap leaf, String → Quantity (1 entry)",
            btree_leaf::<apimachinery::api::resource::Quantity>(),
            btree_leaf::<k8s_openapi::apimachinery::pkg::api::resource::Quantity>(),
        ),
    ];
    println!("| type | ours size_of | k8s-openapi size_of |");
    println!("| --- | ---: | ---: |");
    for (name, ours, peer) in rows {
        println!("| {name} | {ours} B | {peer} B |");
    }
}

/// The heap of a one-entry `BTreeMap<String, V>` with an empty key and a default value:
/// one leaf node, whose size depends on `V`'s (eleven slots whatever the length).
fn btree_leaf<V: Default>() -> usize {
    retained(|| {
        let mut m = std::collections::BTreeMap::new();
        m.insert(String::new(), V::default());
        Ok(m)
    })
    .map(|(b, _)| b as usize)
    .unwrap_or(0)
}

fn breakdown(
    name: &str,
    json: &[u8],
    paths: &[&str],
    decoders: &[(&str, Decode)],
) -> Result<(), Error> {
    let value: Value = serde_json::from_slice(json)?;
    let compact = serde_json::to_vec(&value)?;
    print!("| {name} (compact JSON {} B) |", compact.len());
    let mut whole = Vec::new();
    for (_, decode) in decoders {
        let (bytes, allocs) = decode(&compact)?;
        print!(" {bytes} B / {allocs} |");
        whole.push(bytes);
    }
    println!();
    for path in paths {
        let less = without(&value, path)?;
        print!("| − `{path}` ({} B of JSON) |", compact.len() - less.len());
        for (i, (_, decode)) in decoders.iter().enumerate() {
            let (bytes, _) = decode(&less)?;
            print!(" {} B |", whole[i] - bytes);
        }
        println!();
    }
    Ok(())
}

fn main() -> Result<(), Error> {
    sizes();
    println!();
    let pod = benchmarks::fixture("core.v1.Pod.json")?;
    let decoders: &[(&str, Decode)] = &[
        ("ours, JSON (serde)", ours_json::<k8s_types::core::v1::Pod>),
        (
            "ours, JSON (ReadJson, as the Scheme reads it)",
            ours_read_json::<k8s_types::core::v1::Pod>,
        ),
        ("ours, protobuf", ours_protobuf::<k8s_types::core::v1::Pod>),
        (
            "k8s-openapi, JSON",
            peer_json::<k8s_openapi::api::core::v1::Pod>,
        ),
        (
            "k8s-openapi, JSON as our server writes it",
            peer_json_from_ours::<k8s_types::core::v1::Pod, k8s_openapi::api::core::v1::Pod>,
        ),
        (
            "k8s-openapi, cloned (kube-runtime's store)",
            peer_json_cloned::<k8s_openapi::api::core::v1::Pod>,
        ),
    ];
    print!("| heap (bytes / allocations) |");
    for (name, _) in decoders {
        print!(" {name} |");
    }
    println!();
    println!("| --- |{}", " ---: |".repeat(decoders.len()));
    breakdown("Pod, Go's fixture", &pod, POD_PATHS, decoders)?;

    let cm = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "cm-00001",
            "namespace": "default",
            "uid": "0b8f1d4e-6f55-4a38-9d0c-3f1f3a0d2c11",
            "resourceVersion": "12345",
            "creationTimestamp": "2026-01-01T00:00:00Z",
            "labels": {"app": "app-1", "tier": "backend"},
            "managedFields": [{
                "manager": "kubectl-client-side-apply",
                "operation": "Update",
                "apiVersion": "v1",
                "time": "2026-01-01T00:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {"f:data": {".": {}, "f:config.yaml": {}, "f:mode": {}},
                    "f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:tier": {}}}}
            }]
        },
        "data": {
            "config.yaml": "replicas: 1\nimage: registry.example.com/app:1\n",
            "mode": "production"
        }
    });
    let cm_decoders: &[(&str, Decode)] = &[
        (
            "ours, JSON (serde)",
            ours_json::<k8s_types::core::v1::ConfigMap>,
        ),
        (
            "ours, JSON (ReadJson)",
            ours_read_json::<k8s_types::core::v1::ConfigMap>,
        ),
        (
            "ours, protobuf",
            ours_protobuf::<k8s_types::core::v1::ConfigMap>,
        ),
        (
            "k8s-openapi, JSON",
            peer_json::<k8s_openapi::api::core::v1::ConfigMap>,
        ),
        (
            "k8s-openapi, JSON as our server writes it",
            peer_json_from_ours::<
                k8s_types::core::v1::ConfigMap,
                k8s_openapi::api::core::v1::ConfigMap,
            >,
        ),
        (
            "k8s-openapi, cloned (kube-runtime's store)",
            peer_json_cloned::<k8s_openapi::api::core::v1::ConfigMap>,
        ),
    ];
    breakdown(
        "ConfigMap (the cache benchmark's)",
        &serde_json::to_vec(&cm)?,
        &["metadata.managedFields", "metadata.labels", "data"],
        cm_decoders,
    )?;
    Ok(())
}
