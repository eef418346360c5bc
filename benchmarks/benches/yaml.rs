//! YAML decode and encode of Pod, Deployment and a 1,000-item PodList, in one run:
//!
//! - `ours universal`: the codec factory's universal deserializer (recognizes YAML, reads
//!   the kind, decodes into `k8s_types` through the Scheme), and the YAML serializer's
//!   encode (Go's bytes);
//! - `k8s-openapi`: `serde_yaml_ng` into `k8s_openapi` types, what a Rust user picks;
//! - `serde_yaml_ng::Value`: untyped.
//!
//! Inputs: Go's fixtures (`core.v1.Pod.yaml`, `apps.v1.Deployment.yaml`), `kubectl`'s
//! sparse objects (`benchmarks/data`), and a PodList of 1,000 kubectl pods (written by
//! our YAML encoder, which writes Go's bytes).
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench yaml`

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use benchmarks::{Comparison, Suite, fixture, kubectl_output, pod_list_json};
use serde::Serialize;
use serde::de::DeserializeOwned;

type Error = Box<dyn std::error::Error>;

fn bench_object<Ours, Peer>(
    suite: &mut Suite,
    scheme: &Scheme,
    name: &str,
    bytes: &[u8],
) -> Result<(), Error>
where
    Ours: Object + Clone,
    Peer: DeserializeOwned + Serialize,
{
    let factory = CodecFactory::new(scheme);
    let universal = factory.universal_deserializer();
    let yaml = JsonSerializer::new(
        scheme,
        SerializerOptions {
            yaml: true,
            ..SerializerOptions::default()
        },
    );

    // Every contender must succeed on the input, or the times would compare failures.
    let (decoded, _) = universal.decode(bytes, None, None)?;
    let Some(ours) = decoded.downcast_ref::<Ours>().cloned() else {
        return Err(format!("{name}: the universal deserializer returned another type").into());
    };
    let peer: Peer = serde_yaml_ng::from_slice(bytes)?;
    let value: serde_yaml_ng::Value = serde_yaml_ng::from_slice(bytes)?;
    let ours_bytes = yaml.encode_to_vec(&ours)?;

    let group = format!("yaml decode/{name}");
    let n = Some(bytes.len());
    suite.bench(&group, "serde_yaml_ng::Value", n, || {
        serde_yaml_ng::from_slice::<serde_yaml_ng::Value>(bytes).ok()
    });
    suite.bench(&group, "k8s-openapi", n, || {
        serde_yaml_ng::from_slice::<Peer>(bytes).ok()
    });
    suite.bench(&group, "ours universal", n, || {
        universal.decode(bytes, None, None).ok()
    });

    let group = format!("yaml encode/{name}");
    let n = Some(ours_bytes.len());
    suite.bench(&group, "serde_yaml_ng::Value", n, || {
        serde_yaml_ng::to_string(&value).ok()
    });
    suite.bench(&group, "k8s-openapi", n, || {
        serde_yaml_ng::to_string(&peer).ok()
    });
    suite.bench(&group, "ours serializer", n, || {
        yaml.encode_to_vec(&ours).ok()
    });
    Ok(())
}

fn main() -> Result<(), Error> {
    use k8s_openapi::api::apps::v1 as peer_apps;
    use k8s_openapi::api::core::v1 as peer_core;
    use k8s_types::apps::v1 as apps;
    use k8s_types::core::v1 as core;

    let scheme = Scheme::from_registry()?;
    let list_json = pod_list_json(&kubectl_output("pod.kubectl.json")?, 1000)?;
    let list: core::PodList = serde_json::from_slice(&list_json)?;
    let yaml = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            yaml: true,
            ..SerializerOptions::default()
        },
    );
    let inputs = [
        ("Pod fixture", fixture("core.v1.Pod.yaml")?),
        ("Deployment fixture", fixture("apps.v1.Deployment.yaml")?),
        ("Pod kubectl", kubectl_output("pod.kubectl.yaml")?),
        (
            "Deployment kubectl",
            kubectl_output("deployment.kubectl.yaml")?,
        ),
        ("PodList 1000 kubectl pods", yaml.encode_to_vec(&list)?),
    ];

    let mut suite = Suite::new("yaml");
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
        .map(|(name, _)| (format!("yaml decode/{name}"), format!("yaml encode/{name}")))
        .collect();
    let mut comparisons = Vec::new();
    for (decode, encode) in &groups {
        comparisons.push(Comparison {
            group: decode,
            ours: "ours universal",
            peer: "k8s-openapi",
            target: Some(0.25),
        });
        comparisons.push(Comparison {
            group: encode,
            ours: "ours serializer",
            peer: "k8s-openapi",
            target: Some(0.5),
        });
    }
    suite.print_summary("YAML", &comparisons);
    Ok(())
}
