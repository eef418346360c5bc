//! `discovery-extras.json`: the short names and categories of every resource, which the
//! OpenAPI document does not carry, from the discovery documents `k8s.io/kubernetes`
//! keeps in `api/discovery/` (`api__v1.json` for the core group, `apis__<group>__<version>.json`
//! for the others: the `APIResourceList`s kube-apiserver serves).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

use super::Release;
use crate::Error;

#[derive(Deserialize)]
struct ResourceList {
    #[serde(rename = "groupVersion")]
    group_version: String,
    resources: Vec<Resource>,
}

#[derive(Deserialize)]
struct Resource {
    name: String,
    #[serde(default, rename = "shortNames")]
    short_names: Vec<String>,
    #[serde(default)]
    categories: Vec<String>,
}

/// Short names and categories keyed by `group/resource` (the core group empty).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Extras {
    short_names: BTreeMap<String, Vec<String>>,
    categories: BTreeMap<String, BTreeSet<String>>,
}

/// The discovery extras of the documents in `dir`, as JSON.
pub fn extras(dir: &Path, release: Release) -> Result<String, Error> {
    let mut lists = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = super::file_name(&path);
        // The per-version documents; the group lists and the aggregated document repeat
        // them (the latter without the core group).
        let per_version = name == "api__v1.json"
            || (name.starts_with("apis__") && name.matches("__").count() == 2);
        if !per_version {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        let list: ResourceList = serde_json::from_str(&text).map_err(|source| Error::Parse {
            path: path.clone(),
            source,
        })?;
        lists.push(list);
    }
    if lists.is_empty() {
        return Err(Error::Model(format!(
            "{}: no discovery documents",
            dir.display()
        )));
    }
    let extras = collect(&lists)?;
    Ok(render(&extras, release))
}

fn collect(lists: &[ResourceList]) -> Result<Extras, Error> {
    let mut out = Extras::default();
    for list in lists {
        let group = list.group_version.rsplit_once('/').map_or("", |(g, _)| g);
        // Subresources (`pods/status`) have neither.
        for r in list.resources.iter().filter(|r| !r.name.contains('/')) {
            let key = format!("{group}/{}", r.name);
            if !r.short_names.is_empty() {
                match out.short_names.get(&key) {
                    Some(seen) if *seen != r.short_names => {
                        return Err(Error::Model(format!(
                            "discovery: {key} has short names {seen:?} in one version and {:?} in {}",
                            r.short_names, list.group_version
                        )));
                    }
                    _ => {
                        out.short_names.insert(key.clone(), r.short_names.clone());
                    }
                }
            }
            for c in &r.categories {
                out.categories
                    .entry(c.clone())
                    .or_default()
                    .insert(key.clone());
            }
        }
    }
    Ok(out)
}

fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

fn list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| quoted(s.as_ref())).collect();
    format!("[{}]", items.join(", "))
}

/// One entry a line, so that a release's changes read as a line diff.
fn render(extras: &Extras, release: Release) -> String {
    let mut out = String::from("{\n");
    let about = format!(
        "Short names and categories of each resource (`kubectl api-resources`), which the OpenAPI document does not carry, from the discovery documents of k8s.io/kubernetes at Kubernetes {release} (api/discovery). Keyed by '<group>/<resource>', the core group empty."
    );
    let _ = writeln!(out, "  \"_about\": {},", quoted(&about));
    out.push_str("  \"shortNames\": {\n");
    let rows: Vec<String> = extras
        .short_names
        .iter()
        .map(|(k, v)| format!("    {}: {}", quoted(k), list(v)))
        .collect();
    out.push_str(&rows.join(",\n"));
    out.push_str("\n  },\n  \"categories\": {\n");
    let rows: Vec<String> = extras
        .categories
        .iter()
        .map(|(k, v)| format!("    {}: {}", quoted(k), list(v)))
        .collect();
    out.push_str(&rows.join(",\n"));
    out.push_str("\n  }\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(json: &str) -> Result<ResourceList, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn short_names_and_categories_by_group_and_resource() -> Result<(), Box<dyn std::error::Error>>
    {
        let core = list(
            r#"{"groupVersion":"v1","resources":[{"name":"pods","shortNames":["po"],"categories":["all"]},{"name":"pods/status"}]}"#,
        )?;
        let apps = list(
            r#"{"groupVersion":"apps/v1","resources":[{"name":"deployments","shortNames":["deploy"],"categories":["all"]}]}"#,
        )?;
        let extras = collect(&[core, apps])?;
        let text = render(&extras, Release::parse("1.37")?);
        let value: serde_json::Value = serde_json::from_str(&text)?;
        assert_eq!(value["shortNames"]["/pods"], serde_json::json!(["po"]));
        assert_eq!(
            value["shortNames"]["apps/deployments"],
            serde_json::json!(["deploy"])
        );
        assert_eq!(
            value["categories"]["all"],
            serde_json::json!(["/pods", "apps/deployments"])
        );
        Ok(())
    }

    #[test]
    fn versions_disagreeing_on_short_names_are_an_error() -> Result<(), serde_json::Error> {
        let v1 = list(r#"{"groupVersion":"g/v1","resources":[{"name":"rs","shortNames":["a"]}]}"#)?;
        let v2 = list(r#"{"groupVersion":"g/v2","resources":[{"name":"rs","shortNames":["b"]}]}"#)?;
        assert!(collect(&[v1, v2]).is_err());
        Ok(())
    }
}
