//! The Scheme's lookups on the registry of every built-in kind (`Scheme::from_registry`
//! with `k8s_types` linked): `new_object(gvk)`, `object_kinds(obj)` and
//! `recognizes(gvk)`, against a `HashMap` lookup of the same key, the least any
//! registry costs.
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench scheme`

use std::collections::HashMap;
use std::time::Duration;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::schema::GroupVersionKind;
use benchmarks::{Comparison, Suite};

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let scheme = Scheme::from_registry()?;
    let deployment: GroupVersionKind = "apps/v1, Kind=Deployment".parse()?;
    let unknown: GroupVersionKind = "example.com/v1, Kind=Widget".parse()?;
    let obj: Box<dyn Object> = Box::new(k8s_types::apps::v1::Deployment::default());
    if !scheme.recognizes(&deployment) || scheme.object_kinds(obj.as_ref()).is_err() {
        return Err("apps/v1 Deployment is not registered".into());
    }
    let kinds = scheme.all_known_types().len();
    let map: HashMap<GroupVersionKind, usize> = scheme
        .all_known_types()
        .into_keys()
        .cloned()
        .enumerate()
        .map(|(i, gvk)| (gvk, i))
        .collect();

    let group = format!("scheme ({kinds} kinds)");
    let mut suite = Suite::new("scheme");
    suite.bench(&group, "HashMap::get", None, || {
        map.get(&deployment).copied()
    });
    suite.bench(&group, "recognizes", None, || {
        scheme.recognizes(&deployment)
    });
    suite.bench(&group, "recognizes (unknown kind)", None, || {
        scheme.recognizes(&unknown)
    });
    suite.bench(&group, "new_object", None, || {
        scheme.new_object(&deployment).ok()
    });
    suite.bench(&group, "object_kinds", None, || {
        scheme.object_kinds(obj.as_ref()).map(|(k, _)| k.len()).ok()
    });
    suite.final_summary();

    let comparisons: Vec<Comparison<'_>> = ["recognizes", "new_object", "object_kinds"]
        .into_iter()
        .map(|ours| Comparison {
            group: &group,
            ours,
            peer: "HashMap::get",
            target: None,
        })
        .collect();
    suite.print_summary("Scheme", &comparisons);
    let limit = Duration::from_nanos(50);
    suite.print_limits(
        "Scheme",
        &[
            (&group, "recognizes", limit),
            (&group, "new_object", limit),
            (&group, "object_kinds", limit),
        ],
    );
    Ok(())
}
