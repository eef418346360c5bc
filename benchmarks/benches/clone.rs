//! Deep copy: `Clone` of our generated Deployment and Pod against `Clone` of the same
//! objects as `k8s_openapi` types (each clone dropped inside the timed region, as a
//! program using the copy would), on Go's fixtures (every field set) and on `kubectl`'s
//! sparse objects.
//!
//! Conversion (apps/v1 → hub → apps/v1beta2) is not generated for `k8s_types` yet; the
//! conversion machinery is measured on hand-written Deployment-shaped types by
//! `cargo bench -p apimachinery --bench conversion` (run by `benchmarks/run.sh`).
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench clone`

use benchmarks::{Comparison, Suite, fixture, kubectl_output};
use serde::de::DeserializeOwned;

type Error = Box<dyn std::error::Error>;

fn bench_clone<Ours, Peer>(suite: &mut Suite, name: &str, json: &[u8]) -> Result<(), Error>
where
    Ours: DeserializeOwned + Clone,
    Peer: DeserializeOwned + Clone,
{
    let ours: Ours = serde_json::from_slice(json)?;
    let peer: Peer = serde_json::from_slice(json)?;
    let group = format!("clone/{name}");
    suite.bench(&group, "k8s-openapi", None, || peer.clone());
    suite.bench(&group, "ours", None, || ours.clone());
    Ok(())
}

fn main() -> Result<(), Error> {
    use k8s_openapi::api::apps::v1 as peer_apps;
    use k8s_openapi::api::core::v1 as peer_core;
    use k8s_types::apps::v1 as apps;
    use k8s_types::core::v1 as core;

    let names = [
        "Deployment fixture",
        "Pod fixture",
        "Deployment kubectl",
        "Pod kubectl",
    ];
    let mut suite = Suite::new();
    bench_clone::<apps::Deployment, peer_apps::Deployment>(
        &mut suite,
        names[0],
        &fixture("apps.v1.Deployment.json")?,
    )?;
    bench_clone::<core::Pod, peer_core::Pod>(&mut suite, names[1], &fixture("core.v1.Pod.json")?)?;
    bench_clone::<apps::Deployment, peer_apps::Deployment>(
        &mut suite,
        names[2],
        &kubectl_output("deployment.kubectl.json")?,
    )?;
    bench_clone::<core::Pod, peer_core::Pod>(
        &mut suite,
        names[3],
        &kubectl_output("pod.kubectl.json")?,
    )?;
    suite.final_summary();

    let groups: Vec<String> = names.iter().map(|n| format!("clone/{n}")).collect();
    let comparisons: Vec<Comparison<'_>> = groups
        .iter()
        .map(|group| Comparison {
            group,
            ours: "ours",
            peer: "k8s-openapi",
            target: Some(0.7),
        })
        .collect();
    suite.print_summary("Clone", &comparisons);
    Ok(())
}
