//! `go_types.rs`: the list of every Go type of the release's Kubernetes API by API group,
//! version and name, data only.
//!
//! The generated structs say what this crate implements; this list says what the release
//! defines, so that a tool can tell a kind the release no longer has (Go's compatibility
//! test skips old fixtures of such kinds) from one it has and the Scheme lacks (a bug).
//! It is every message of the reference data whose package is an API group version,
//! whether or not the generator makes a struct of it (`ObjectMeta` is hand-written in
//! `apimachinery`, `ExtraValue` is an alias, `Timestamp` is not generated at all).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::Error;
use crate::input::Input;
use crate::model::{Model, package_module};

/// The generated file's name, relative to the output directory.
pub const FILE: &str = "go_types.rs";

/// `(API group, version, type name)`.
type Entry = (String, String, String);

/// The text of [`FILE`] for `input`, with API groups as `model` maps them.
pub fn go_types(input: &Input, model: &Model) -> Result<String, Error> {
    let entries = entries(input.messages.keys().map(String::as_str), model)?;
    Ok(render(&entries, &model.release))
}

/// The entries for the messages named `keys` (`io.k8s.api.apps.v1.Deployment`); messages
/// outside any API group version (`resource.Quantity`, `runtime.Unknown`) are left out.
fn entries<'a>(
    keys: impl Iterator<Item = &'a str>,
    model: &Model,
) -> Result<BTreeSet<Entry>, Error> {
    let mut out = BTreeSet::new();
    for key in keys {
        let Some((prefix, name)) = key.rsplit_once('.') else {
            continue;
        };
        let Some((module, version)) = package_module(prefix) else {
            continue;
        };
        let group = model
            .modules
            .get(&(module.clone(), version.clone()))
            .map(|m| m.group.as_str())
            // Only the core module is the empty group; an empty one elsewhere means the
            // model never learnt the module's group (a package of external types only).
            .filter(|group| !group.is_empty() || module == "core")
            .ok_or_else(|| {
                Error::Model(format!(
                    "{key}: no API group known for `{module}/{version}` (type list)"
                ))
            })?;
        out.insert((group.to_owned(), version, name.to_owned()));
    }
    Ok(out)
}

/// The Rust source of the list, sorted as Rust compares the tuples, which the binary
/// search of `k8s_types::defines_type` relies on.
fn render(entries: &BTreeSet<Entry>, release: &str) -> String {
    let mut out = crate::emit::header(release);
    let _ = writeln!(
        out,
        "//! Every Go type of the Kubernetes {release} API, by API group, version and name.\n"
    );
    let _ = writeln!(
        out,
        "/// Every Go type of the Kubernetes {release} API (each message of `k8s.io/api`,\n/// `apimachinery` meta, `apiextensions-apiserver` and `kube-aggregator`, served\n/// versions and unserved ones alike) as `(API group, version, type name)`; the core\n/// group is `\"\"`, meta's types are in `meta.k8s.io`. Sorted."
    );
    out.push_str("pub static GO_TYPES: &[(&str, &str, &str)] = &[\n");
    for (group, version, name) in entries {
        let _ = writeln!(out, "    ({group:?}, {version:?}, {name:?}),");
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Module;

    fn model(modules: &[(&str, &str, &str)]) -> Model {
        let mut model = Model::default();
        for (module, version, group) in modules {
            model.modules.insert(
                ((*module).to_owned(), (*version).to_owned()),
                Module {
                    group: (*group).to_owned(),
                    ..Module::default()
                },
            );
        }
        model
    }

    #[test]
    fn messages_are_listed_by_api_group_and_packages_without_one_are_left_out() -> Result<(), Error>
    {
        let model = model(&[
            ("apps", "v1", "apps"),
            ("core", "v1", ""),
            ("meta", "v1", "meta.k8s.io"),
        ]);
        let keys = [
            "io.k8s.api.apps.v1.Deployment",
            "io.k8s.api.core.v1.Pod",
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "io.k8s.apimachinery.pkg.api.resource.Quantity",
            "io.k8s.apimachinery.pkg.runtime.Unknown",
        ];
        let listed: Vec<Entry> = entries(keys.into_iter(), &model)?.into_iter().collect();
        let entry = |g: &str, v: &str, n: &str| (g.to_owned(), v.to_owned(), n.to_owned());
        assert_eq!(
            listed,
            [
                entry("", "v1", "Pod"),
                entry("apps", "v1", "Deployment"),
                entry("meta.k8s.io", "v1", "ObjectMeta"),
            ]
        );
        Ok(())
    }

    #[test]
    fn a_package_without_a_known_group_is_an_error() {
        let model = model(&[("apps", "v1", "")]);
        let result = entries(["io.k8s.api.apps.v1.Deployment"].into_iter(), &model);
        assert!(
            matches!(&result, Err(Error::Model(m)) if m.contains("apps/v1")),
            "{result:?}"
        );
        let result = entries(["io.k8s.api.batch.v1.Job"].into_iter(), &model);
        assert!(matches!(result, Err(Error::Model(_))), "{result:?}");
    }

    #[test]
    fn the_file_lists_the_entries_in_order() {
        let entries = BTreeSet::from([
            ("apps".to_owned(), "v1".to_owned(), "Deployment".to_owned()),
            (String::new(), "v1".to_owned(), "Pod".to_owned()),
        ]);
        let text = render(&entries, "1.37");
        assert!(text.starts_with(&crate::emit::header("1.37")));
        assert!(
            text.ends_with(
                "pub static GO_TYPES: &[(&str, &str, &str)] = &[\n    (\"\", \"v1\", \"Pod\"),\n    (\"apps\", \"v1\", \"Deployment\"),\n];\n"
            ),
            "{text}"
        );
    }
}
