//! `kapi deprecations`: every object whose API version a Kubernetes release has
//! deprecated or no longer serves, from the lifecycle methods of Go's `k8s.io/api`
//! (`k8s_types::lifecycle`), without a cluster.
//!
//! Each document of each input is read as JSON or YAML (or a protobuf envelope); a
//! `List` (or any document with `items`) is looked into, each item checked (an item
//! without `apiVersion` or `kind` takes them from its typed list, `DeploymentList` →
//! `Deployment`). An object is listed when its version is deprecated in the target
//! release or before, or removed in it or before. Objects of kinds without lifecycle
//! data (custom resources, GA versions never deprecated) are not.
//!
//! Helm's rendered output names each object's template in a `# Source:` comment above
//! it; that path is reported with the object, as it is what the user edits.
//!
//! The exit status is 1 when an object's version is no longer served by the target (a
//! CI gate for an upgrade) or an input could not be read; deprecated versions that are
//! still served do not fail the run.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use apimachinery::proto::{self, decode_envelope};
use apimachinery::serializer::yaml::{json_to_yaml, yaml_to_json};
use k8s_types::lifecycle::{self, ApiLifecycle, Release};
use serde::Serialize;
use serde_json::Value;

use super::CommandError;
use super::documents::{Document, documents, with_template_hint};
use super::inputs::read_inputs;
use crate::cli::{DeprecationsArgs, DeprecationsOutput};
use crate::progress::Progress;
use crate::table::Table;
use apimachinery::util::json::indent_into as indent_json;

/// An object as read: what identifies it and its API version.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Scanned {
    /// Its index in the document's `items`, for list items.
    item: Option<usize>,
    api_version: String,
    kind: String,
    namespace: String,
    name: String,
}

/// One listed object, as written in JSON and YAML.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Finding {
    file: String,
    document: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    item: Option<usize>,
    /// The template Helm rendered it from.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    namespace: String,
    name: String,
    api_version: String,
    /// `removed` when the target no longer serves the version, else `deprecated`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated_in: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    removed_in: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    replacement: Option<Replacement>,
}

/// The replacement Go's markers name.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    api_version: String,
    kind: String,
}

/// The whole report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    target_version: String,
    items: Vec<Finding>,
}

pub fn run(args: &DeprecationsArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let target = args
        .target_version
        .unwrap_or_else(lifecycle::latest_release);
    let (inputs, errors) = read_inputs(&args.files, args.recursive);
    let mut failed = !errors.is_empty();
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut findings = Vec::new();
    let mut objects = 0usize;
    let mut progress = Progress::new("checking", inputs.len(), std::io::stderr().is_terminal());
    for input in &inputs {
        progress.step(&input.name);
        for (document, doc) in documents(&input.bytes) {
            let scanned = doc.and_then(|doc| {
                scan(doc)
                    .map(|objs| (source(doc), objs))
                    .map_err(|e| with_template_hint(&input.bytes, &e))
            });
            let (source, scanned) = match scanned {
                Ok(found) => found,
                Err(e) => {
                    progress.clear();
                    eprintln!("error: {}: document {document}: {e}", input.name);
                    failed = true;
                    continue;
                }
            };
            objects += scanned.len();
            for obj in scanned {
                let Some(entry) = lifecycle::find_api_version(&obj.api_version, &obj.kind) else {
                    continue;
                };
                if let Some(status) = status(entry, target) {
                    findings.push(finding(&input.name, document, &source, obj, entry, status));
                }
            }
        }
    }
    progress.clear();
    let removed = findings.iter().filter(|f| f.status == "removed").count();
    match args.output {
        DeprecationsOutput::Table => write_table(&findings, args.no_headers, out)?,
        DeprecationsOutput::Json | DeprecationsOutput::Yaml => {
            let report = Report {
                target_version: target.to_string(),
                items: findings,
            };
            let json = serde_json::to_vec(&report)?;
            if args.output == DeprecationsOutput::Json {
                let mut text = Vec::new();
                indent_json(&json, b"    ", &mut text);
                text.push(b'\n');
                out.write_all(&text)?;
            } else {
                let value: Value = serde_json::from_slice(&json)?;
                out.write_all(json_to_yaml(&value).as_bytes())?;
            }
            return Ok(exit_code(failed || removed > 0));
        }
    }
    let listed = findings_count_line(findings.len(), removed, objects, inputs.len(), target);
    eprintln!("{listed}");
    Ok(exit_code(failed || removed > 0))
}

fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The summary line after the table.
fn findings_count_line(
    listed: usize,
    removed: usize,
    objects: usize,
    files: usize,
    target: Release,
) -> String {
    let checked = format!(
        "{objects} object{} in {files} file{}",
        plural(objects),
        plural(files)
    );
    if listed == 0 {
        return format!("no deprecated or removed API versions in Kubernetes {target} ({checked})");
    }
    format!(
        "{removed} object{} on API versions Kubernetes {target} no longer serves, {} on deprecated ones ({checked})",
        plural(removed),
        listed - removed
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Whether `entry`'s version is removed or deprecated by `target`, if either.
fn status(entry: &ApiLifecycle, target: Release) -> Option<&'static str> {
    if entry.is_removed_in(target) {
        Some("removed")
    } else if entry.is_deprecated_in(target) {
        Some("deprecated")
    } else {
        None
    }
}

fn finding(
    file: &str,
    document: usize,
    source: &Option<String>,
    obj: Scanned,
    entry: &ApiLifecycle,
    status: &'static str,
) -> Finding {
    Finding {
        file: file.to_owned(),
        document,
        item: obj.item,
        source: source.clone(),
        kind: obj.kind,
        namespace: obj.namespace,
        name: obj.name,
        api_version: obj.api_version,
        status,
        deprecated_in: entry.deprecated.map(|r| r.to_string()),
        removed_in: entry.removed.map(|r| r.to_string()),
        replacement: entry.replacement.map(|r| Replacement {
            api_version: r.api_version(),
            kind: r.kind.to_owned(),
        }),
    }
}

fn write_table(findings: &[Finding], no_headers: bool, out: &mut dyn Write) -> std::io::Result<()> {
    if findings.is_empty() {
        return Ok(());
    }
    let mut table = Table::default();
    if !no_headers {
        table.row([
            "FILE",
            "DOC",
            "KIND",
            "NAME",
            "APIVERSION",
            "STATUS",
            "DEPRECATED",
            "REMOVED",
            "REPLACEMENT",
        ]);
    }
    let none = || "<none>".to_owned();
    for f in findings {
        let file = f.source.clone().unwrap_or_else(|| f.file.clone());
        let doc = match f.item {
            Some(i) => format!("{}/items[{i}]", f.document),
            None => f.document.to_string(),
        };
        let name = if f.namespace.is_empty() {
            f.name.clone()
        } else {
            format!("{}/{}", f.namespace, f.name)
        };
        let replacement = f
            .replacement
            .as_ref()
            .map_or_else(none, |r| format!("{} {}", r.api_version, r.kind));
        table.row([
            file,
            doc,
            f.kind.clone(),
            name,
            f.api_version.clone(),
            f.status.to_owned(),
            f.deprecated_in.clone().unwrap_or_else(none),
            f.removed_in.clone().unwrap_or_else(none),
            replacement,
        ]);
    }
    table.write(out)
}

/// The path of a `# Source: path` comment line of the document (Helm writes one above
/// each object it renders).
fn source(doc: Document<'_>) -> Option<String> {
    let Document::Text(text) = doc else {
        return None;
    };
    text.lines()
        .map(str::trim)
        .take_while(|l| l.is_empty() || l.starts_with('#') || *l == "---")
        .find_map(|l| l.strip_prefix("# Source:"))
        .map(|s| s.trim().to_owned())
}

/// The objects of one document.
fn scan(doc: Document<'_>) -> Result<Vec<Scanned>, String> {
    match doc {
        Document::Text(text) => {
            let value = yaml_to_json(text).map_err(|e| e.to_string())?.value;
            match value {
                Value::Null => Ok(Vec::new()),
                Value::Object(_) => Ok(objects_of(&value)),
                _ => Err("not an object".to_owned()),
            }
        }
        Document::Protobuf(bytes) => scan_protobuf(bytes),
    }
}

/// An object, or the items of a list.
fn objects_of(value: &Value) -> Vec<Scanned> {
    let top = scanned(value, None, None);
    let Some(items) = value.get("items").and_then(Value::as_array) else {
        return vec![top];
    };
    // Items of a typed list (`DeploymentList`) may leave out their kind and version.
    let item_kind = top
        .kind
        .strip_suffix("List")
        .filter(|k| !k.is_empty())
        .map(str::to_owned);
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| item.is_object())
        .map(|(i, item)| {
            let defaults = item_kind
                .as_ref()
                .map(|kind| (top.api_version.as_str(), kind.as_str()));
            scanned(item, Some(i), defaults)
        })
        .collect()
}

fn scanned(value: &Value, item: Option<usize>, defaults: Option<(&str, &str)>) -> Scanned {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
    let metadata = value.get("metadata");
    let mut api_version = text(value.get("apiVersion"));
    let mut kind = text(value.get("kind"));
    if let Some((default_version, default_kind)) = defaults {
        if api_version.is_empty() {
            api_version = default_version.to_owned();
        }
        if kind.is_empty() {
            kind = default_kind.to_owned();
        }
    }
    Scanned {
        item,
        api_version,
        kind,
        namespace: text(metadata.and_then(|m| m.get("namespace"))),
        name: text(metadata.and_then(|m| m.get("name"))),
    }
}

/// A protobuf object's kind and version from its envelope (its name would need its
/// type's decoder, and is left empty); a `v1 List`'s items, each an envelope or JSON.
fn scan_protobuf(bytes: &[u8]) -> Result<Vec<Scanned>, String> {
    let envelope = decode_envelope(bytes).map_err(|e| e.to_string())?;
    let of_envelope = |api_version: &str, kind: &str, item| Scanned {
        item,
        api_version: api_version.to_owned(),
        kind: kind.to_owned(),
        namespace: String::new(),
        name: String::new(),
    };
    if envelope.kind != "List" || envelope.api_version != "v1" {
        return Ok(vec![of_envelope(envelope.api_version, envelope.kind, None)]);
    }
    let list: k8s_types::core::v1::List =
        proto::decode_message(envelope.raw).map_err(|e| format!("List: {e}"))?;
    let mut out = Vec::new();
    for (i, item) in list.items.iter().flatten().enumerate() {
        if item.raw.starts_with(proto::MAGIC) {
            let e = decode_envelope(&item.raw).map_err(|e| format!("items[{i}]: {e}"))?;
            out.push(of_envelope(e.api_version, e.kind, Some(i)));
        } else {
            let value: Value =
                serde_json::from_slice(&item.raw).map_err(|e| format!("items[{i}]: {e}"))?;
            out.push(scanned(&value, Some(i), None));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helm_sources_are_read_from_the_comments_above_an_object() {
        let doc = Document::Text(
            "---\n# Source: web/templates/deploy.yaml\napiVersion: v1\n# Source: not/this.yaml\n",
        );
        assert_eq!(source(doc).as_deref(), Some("web/templates/deploy.yaml"));
        assert_eq!(source(Document::Text("kind: A\n")), None);
    }

    #[test]
    fn typed_list_items_take_the_list_s_kind() -> Result<(), String> {
        let doc = "apiVersion: extensions/v1beta1\nkind: DeploymentList\nitems:\n- metadata: {name: a}\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: b, namespace: x}\n";
        let found = scan(Document::Text(doc))?;
        assert_eq!(found.len(), 2);
        assert_eq!(
            (
                found[0].item,
                found[0].api_version.as_str(),
                found[0].kind.as_str(),
                found[0].name.as_str()
            ),
            (Some(0), "extensions/v1beta1", "Deployment", "a")
        );
        assert_eq!(
            (found[1].api_version.as_str(), found[1].namespace.as_str()),
            ("apps/v1", "x")
        );
        assert!(scan(Document::Text("- a\n")).is_err());
        assert!(scan(Document::Text("# only a comment\n"))?.is_empty());
        Ok(())
    }

    #[test]
    fn status_follows_the_target_release() {
        let Some(cron) = lifecycle::find("batch", "v1beta1", "CronJob") else {
            panic!("no CronJob entry");
        };
        assert_eq!(status(cron, Release::new(1, 20)), None);
        assert_eq!(status(cron, Release::new(1, 21)), Some("deprecated"));
        assert_eq!(status(cron, Release::new(1, 25)), Some("removed"));
    }

    #[test]
    fn the_summary_counts_what_was_checked() {
        let target = Release::new(1, 37);
        assert_eq!(
            findings_count_line(0, 0, 1, 1, target),
            "no deprecated or removed API versions in Kubernetes 1.37 (1 object in 1 file)"
        );
        assert_eq!(
            findings_count_line(3, 2, 10, 4, target),
            "2 objects on API versions Kubernetes 1.37 no longer serves, 1 on deprecated ones (10 objects in 4 files)"
        );
    }
}
