//! Deep copy: `Clone` of our generated Deployment and Pod against `Clone` of the same
//! objects as `k8s_openapi` types (each clone dropped inside the timed region, as a
//! program using the copy would), on Go's fixtures (every field set) and on `kubectl`'s
//! sparse objects.
//!
//! Conversion: `k8s_types::apps::v1::Deployment` (the hub of apps Deployments, so
//! apps/v1 → hub is the object itself) → `apps::v1beta2::Deployment` with the generated
//! conversion, by value (`Convert::convert`: moves strings, vectors and maps), by
//! reference (`convert_ref`: clones what it must), and by value through the scheme
//! (`Scheme::convert_to_version`, `Box<dyn Object>` in and out), each against `Clone` of
//! the same object. The scheme also takes the object through Go's internal form (its
//! `InternalForm`: in 1.36 a pod template's `serviceAccount` set from
//! `serviceAccountName`, as Go's trip through the internal version does; 1.37 moved that
//! to defaulting), which the static conversions leave to
//! the caller; the check that the routes agree applies it to theirs. In these groups inputs are built, and outputs dropped, outside the
//! timed region (dropping a Deployment fixture costs more than converting it).
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench clone`

use apimachinery::conversion::{Convert, InternalForm, Scope};
use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersion;
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

/// The conversion routes of one Deployment, apps/v1 → apps/v1beta2, and its clone.
fn bench_conversion(
    suite: &mut Suite,
    scheme: &Scheme,
    name: &str,
    json: &[u8],
) -> Result<(), Error> {
    use k8s_types::apps::{v1, v1beta2};

    let d: v1::Deployment = serde_json::from_slice(json)?;
    let scope = Scope::new().with_converter(scheme.converter());
    let target = GroupVersion::new("apps", "v1beta2");
    // Every route must give the same object, or the times would compare different work.
    let by_ref: v1beta2::Deployment = d.convert_ref(&scope)?;
    let by_value: v1beta2::Deployment = d.clone().convert(&scope)?;
    let dynamic = scheme.convert_to_version(Box::new(d.clone()), &target)?;
    let Ok(dynamic) = dynamic.downcast::<v1beta2::Deployment>() else {
        return Err(format!("{name}: the scheme converted to another type").into());
    };
    // The scheme also sets the declared kind (`apps/v1beta2`) and takes the object
    // through Go's internal form; the static conversion leaves both to the caller.
    // (1.37's apps/v1beta2 Deployment adds nothing on the way out of the internal form:
    // it has no `externalize`, where 1.36's has one.)
    let mut by_ref_declared: v1beta2::Deployment = {
        let mut internal = d.clone();
        internal.internalize()?;
        internal.convert(&scope)?
    };
    by_ref_declared.set_group_version_kind(&dynamic.group_version_kind());
    if by_value != by_ref || *dynamic != by_ref_declared {
        return Err(format!(
            "{name}: the conversion routes disagree (by value = by reference: {}; scheme = by reference: {})",
            by_value == by_ref,
            *dynamic == by_ref_declared
        )
        .into());
    }
    let back: v1::Deployment = by_ref.convert_ref(&scope)?;
    if back != d {
        println!("note: {name}: apps/v1beta2 -> apps/v1 does not give the input back");
    }

    let group = format!("convert apps/v1 -> apps/v1beta2/{name}");
    suite.bench_by_value(&group, "clone", || (), |()| d.clone());
    suite.bench_by_value(
        &group,
        "by reference",
        || (),
        |()| Convert::<v1beta2::Deployment>::convert_ref(&d, &scope),
    );
    suite.bench_by_value(
        &group,
        "by value",
        || d.clone(),
        |d| Convert::<v1beta2::Deployment>::convert(d, &scope),
    );
    suite.bench_by_value(
        &group,
        "scheme.convert_to_version (by value)",
        || Box::new(d.clone()) as Box<dyn Object>,
        |d| scheme.convert_to_version(d, &target),
    );
    suite.bench_by_value(&group, "move (no conversion)", || d.clone(), |d| d);
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
    let mut suite = Suite::new("clone");
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
    let scheme = Scheme::from_registry()?;
    let conversions = ["Deployment fixture", "Deployment kubectl"];
    bench_conversion(
        &mut suite,
        &scheme,
        conversions[0],
        &fixture("apps.v1.Deployment.json")?,
    )?;
    bench_conversion(
        &mut suite,
        &scheme,
        conversions[1],
        &kubectl_output("deployment.kubectl.json")?,
    )?;
    suite.final_summary();

    let groups: Vec<String> = names.iter().map(|n| format!("clone/{n}")).collect();
    let mut comparisons: Vec<Comparison<'_>> = groups
        .iter()
        .map(|group| Comparison {
            group,
            ours: "ours",
            peer: "k8s-openapi",
            target: Some(0.7),
        })
        .collect();
    let conversion_groups: Vec<String> = conversions
        .iter()
        .map(|n| format!("convert apps/v1 -> apps/v1beta2/{n}"))
        .collect();
    for group in &conversion_groups {
        for (ours, target) in [
            ("by value", Some(0.2)),
            ("scheme.convert_to_version (by value)", Some(0.2)),
            ("by reference", None),
            ("move (no conversion)", None),
        ] {
            comparisons.push(Comparison {
                group,
                ours,
                peer: "clone",
                target,
            });
        }
    }
    suite.print_summary("Clone and conversion", &comparisons);
    Ok(())
}
