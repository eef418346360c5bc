//! JSON decode and encode of Pod, Deployment and a 1,000-item PodList, in one run:
//!
//! - `ours universal`: the codec factory's universal deserializer (format recognition,
//!   GVK sniffing, the Scheme's typed decode into `k8s_types`), and the JSON serializer's
//!   encode (Go's bytes);
//! - `ours serde_json typed`: `serde_json` straight into `k8s_types` (no Scheme), which
//!   shows what the dispatch costs;
//! - `k8s-openapi`: `serde_json` into `k8s_openapi` types, what a Rust user picks today;
//! - `serde_json::Value`: untyped;
//! - `validate only` (decode): `serde_json` into `IgnoredAny`, the floor of any parse.
//!
//! Inputs: Go's fixtures (`core.v1.Pod.json`, `apps.v1.Deployment.json`: every field set),
//! `kubectl`'s sparse objects (`benchmarks/data`), and a PodList of 1,000 kubectl pods.
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench json`

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use benchmarks::{Comparison, Suite, fixture, kubectl_output, pod_list_json};
use serde::Serialize;
use serde::de::{DeserializeOwned, IgnoredAny};

type Error = Box<dyn std::error::Error>;

/// One input, decoded and encoded by every contender.
fn bench_object<Ours, Peer>(
    suite: &mut Suite,
    scheme: &Scheme,
    name: &str,
    bytes: &[u8],
) -> Result<(), Error>
where
    Ours: Object + DeserializeOwned + Serialize,
    Peer: DeserializeOwned + Serialize,
{
    let factory = CodecFactory::new(scheme);
    let universal = factory.universal_deserializer();
    let json = JsonSerializer::new(scheme, SerializerOptions::default());

    // Every contender must succeed on the input, or the times would compare failures.
    let (decoded, _) = universal.decode(bytes, None, None)?;
    if !decoded.is::<Ours>() {
        return Err(format!("{name}: the universal deserializer returned another type").into());
    }
    let ours: Ours = serde_json::from_slice(bytes)?;
    let peer: Peer = serde_json::from_slice(bytes)?;
    let value: serde_json::Value = serde_json::from_slice(bytes)?;
    let ours_bytes = json.encode_to_vec(&ours)?;

    let group = format!("json decode/{name}");
    let n = Some(bytes.len());
    suite.bench(&group, "validate only", n, || {
        serde_json::from_slice::<IgnoredAny>(bytes).ok()
    });
    suite.bench(&group, "serde_json::Value", n, || {
        serde_json::from_slice::<serde_json::Value>(bytes).ok()
    });
    suite.bench(&group, "k8s-openapi", n, || {
        serde_json::from_slice::<Peer>(bytes).ok()
    });
    suite.bench(&group, "ours serde_json typed", n, || {
        serde_json::from_slice::<Ours>(bytes).ok()
    });
    suite.bench(&group, "ours universal", n, || {
        universal.decode(bytes, None, None).ok()
    });

    let group = format!("json encode/{name}");
    let n = Some(ours_bytes.len());
    suite.bench(&group, "serde_json::Value", n, || {
        serde_json::to_vec(&value).ok()
    });
    suite.bench(&group, "k8s-openapi", n, || serde_json::to_vec(&peer).ok());
    suite.bench(&group, "ours serde_json typed", n, || {
        serde_json::to_vec(&ours).ok()
    });
    suite.bench(&group, "ours serializer", n, || {
        json.encode_to_vec(&ours).ok()
    });
    Ok(())
}

fn main() -> Result<(), Error> {
    use k8s_openapi::api::apps::v1 as peer_apps;
    use k8s_openapi::api::core::v1 as peer_core;
    use k8s_types::apps::v1 as apps;
    use k8s_types::core::v1 as core;

    let scheme = Scheme::from_registry()?;
    let pod_kubectl = kubectl_output("pod.kubectl.json")?;
    let inputs = [
        ("Pod fixture", fixture("core.v1.Pod.json")?),
        ("Deployment fixture", fixture("apps.v1.Deployment.json")?),
        ("Pod kubectl", pod_kubectl.clone()),
        (
            "Deployment kubectl",
            kubectl_output("deployment.kubectl.json")?,
        ),
        (
            "PodList 1000 kubectl pods",
            pod_list_json(&pod_kubectl, 1000)?,
        ),
    ];

    let mut suite = Suite::new("json");
    for (name, bytes) in &inputs {
        match *name {
            n if n.starts_with("Pod ") => {
                bench_object::<core::Pod, peer_core::Pod>(&mut suite, &scheme, name, bytes)?
            }
            n if n.starts_with("Deployment ") => bench_object::<
                apps::Deployment,
                peer_apps::Deployment,
            >(&mut suite, &scheme, name, bytes)?,
            _ => bench_object::<core::PodList, k8s_openapi::List<peer_core::Pod>>(
                &mut suite, &scheme, name, bytes,
            )?,
        }
    }
    suite.final_summary();

    let groups: Vec<(String, String)> = inputs
        .iter()
        .map(|(name, _)| (format!("json decode/{name}"), format!("json encode/{name}")))
        .collect();
    let mut comparisons = Vec::new();
    for (decode, encode) in &groups {
        comparisons.push(Comparison {
            group: decode,
            ours: "ours universal",
            peer: "k8s-openapi",
            target: Some(0.67),
        });
        comparisons.push(Comparison {
            group: decode,
            ours: "ours universal",
            peer: "ours serde_json typed",
            target: None,
        });
        comparisons.push(Comparison {
            group: decode,
            ours: "ours universal",
            peer: "serde_json::Value",
            target: None,
        });
        comparisons.push(Comparison {
            group: encode,
            ours: "ours serializer",
            peer: "k8s-openapi",
            target: Some(0.8),
        });
        comparisons.push(Comparison {
            group: encode,
            ours: "ours serializer",
            peer: "serde_json::Value",
            target: None,
        });
    }
    suite.print_summary("JSON", &comparisons);
    Ok(())
}
