//! Which of Go's files hold behaviour we port by hand, and which of ours answer to each.
//!
//! Go keeps each kind of hand-written behaviour at a fixed place of its package map
//! (`pkg/apis/<group>/<version>/conversion.go`, `pkg/registry/<group>/<resource>/
//! strategy.go`, ...), and so do we (`k8s-types/src/defaults/<group>.rs`,
//! `apiserver/src/registry/<group>/<resource>.rs`, ...); our files also cite the Go file
//! they port in their docs (`core/v1/conversion.go`). A Go file's counterparts are the
//! conventional paths that exist and every file of ours that cites it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::Error;
use crate::gomod::read_dir_sorted;

/// What a watched Go file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `pkg/apis/<group>/<version>/conversion.go`.
    Conversion,
    /// `pkg/apis/<group>/<version>/defaults.go`.
    Defaulting,
    /// `pkg/apis/<group>/validation/*.go`.
    Validation,
    /// `pkg/registry/.../strategy.go`.
    Strategy,
    /// `pkg/api/<area>/*.go`: what strategies call (dropped disabled fields, warnings).
    StrategyHelper,
    /// `pkg/printers/internalversion/printers.go`: the server's tables.
    Printer,
    /// `pkg/controlplane/instance.go`: the versions served by default.
    ServedVersions,
}

impl Kind {
    /// Every kind, in the order the report lists them.
    pub const ALL: [Kind; 7] = [
        Kind::Conversion,
        Kind::Defaulting,
        Kind::Validation,
        Kind::Strategy,
        Kind::StrategyHelper,
        Kind::Printer,
        Kind::ServedVersions,
    ];

    /// The report's section title.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Conversion => "Conversions",
            Kind::Defaulting => "Defaulting",
            Kind::Validation => "Validation",
            Kind::Strategy => "Registry strategies",
            Kind::StrategyHelper => "Helpers the strategies call (`pkg/api`)",
            Kind::Printer => "Tables (printers)",
            Kind::ServedVersions => "Versions served by default",
        }
    }
}

/// A watched Go file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watched {
    /// What it holds.
    pub kind: Kind,
    /// Its API group (or `pkg/api`'s area); empty where it has none.
    pub group: String,
    /// The registry's resource directory, for a strategy.
    pub resource: String,
    /// The path our docs cite it by (its path under `pkg/apis/`, `pkg/registry/`, ...).
    pub citation: String,
}

impl Watched {
    /// Our files that port it: the conventional ones that exist, then those citing it.
    pub fn ours(&self, ours: &Ours) -> Vec<String> {
        let (group, resource) = (&self.group, &self.resource);
        let conventional: Vec<String> = match self.kind {
            Kind::Conversion => vec![format!(
                "k8s-types/src/conversions/internal/{group}_{}.rs",
                self.citation.split('/').nth(1).unwrap_or_default()
            )],
            Kind::Defaulting => vec![format!("k8s-types/src/defaults/{group}.rs")],
            Kind::Validation => vec![
                format!("k8s-types/src/validation/{group}.rs"),
                format!("k8s-types/src/validation/{group}/mod.rs"),
            ],
            Kind::Strategy => vec![
                format!("apiserver/src/registry/{group}/{resource}.rs"),
                format!("apiserver/src/registry/{group}/{resource}/mod.rs"),
            ],
            Kind::StrategyHelper => Vec::new(),
            Kind::Printer => vec!["apiserver/src/registry/printers.rs".to_owned()],
            Kind::ServedVersions => Vec::new(),
        };
        let mut found: Vec<String> = conventional
            .into_iter()
            .filter(|path| ours.files.contains_key(path))
            .collect();
        for (path, text) in &ours.files {
            if text.contains(&self.citation) && !found.contains(path) {
                found.push(path.clone());
            }
        }
        found
    }
}

/// Our hand-written sources that port Go's behaviour, by path relative to the
/// workspace, with their text (generated code excluded: it cites nothing by hand).
pub struct Ours {
    files: BTreeMap<String, String>,
}

impl Ours {
    /// Reads them from the workspace at `root`.
    pub fn read(root: &Path) -> Result<Ours, Error> {
        let mut files = BTreeMap::new();
        for dir in ["k8s-types/src", "apiserver/src"] {
            let mut stack = vec![root.join(dir)];
            while let Some(dir) = stack.pop() {
                for entry in read_dir_sorted(&dir)? {
                    let name = entry.file_name().map(|n| n.to_string_lossy().into_owned());
                    if entry.is_dir() {
                        if name.as_deref() != Some("generated") {
                            stack.push(entry);
                        }
                    } else if name.is_some_and(|n| n.ends_with(".rs")) {
                        let text =
                            std::fs::read_to_string(&entry).map_err(|source| Error::Read {
                                path: entry.clone(),
                                source,
                            })?;
                        let rel = entry.strip_prefix(root).unwrap_or(&entry);
                        files.insert(rel.to_string_lossy().replace('\\', "/"), text);
                    }
                }
            }
        }
        Ok(Ours { files })
    }
}

/// The watched files of `module` (a module path) fetched at `dir`, by path in it.
pub fn files(module: &str, dir: &Path) -> Result<BTreeMap<String, Watched>, Error> {
    let mut out = BTreeMap::new();
    let mut stack: Vec<PathBuf> = vec![dir.join("pkg")];
    while let Some(current) = stack.pop() {
        if !current.is_dir() {
            continue;
        }
        for entry in read_dir_sorted(&current)? {
            if entry.is_dir() {
                stack.push(entry);
                continue;
            }
            let Ok(rel) = entry.strip_prefix(dir) else {
                continue;
            };
            let rel = rel.to_string_lossy().replace('\\', "/");
            if let Some(watched) = classify(module, &rel) {
                out.insert(rel, watched);
            }
        }
    }
    Ok(out)
}

/// What `path` (in `module`) holds, if it is watched.
pub fn classify(module: &str, path: &str) -> Option<Watched> {
    let file = path.rsplit('/').next()?;
    if !file.ends_with(".go") || file.ends_with("_test.go") || file.starts_with("zz_generated") {
        return None;
    }
    let parts: Vec<&str> = path.split('/').collect();
    // Test fixtures and Go's test-only API group port nothing.
    if parts
        .iter()
        .any(|p| matches!(*p, "testing" | "testapigroup"))
    {
        return None;
    }
    let watched = |kind, group: &str, resource: &str, citation: String| {
        Some(Watched {
            kind,
            group: group.to_owned(),
            resource: resource.to_owned(),
            citation,
        })
    };
    match parts.as_slice() {
        ["pkg", "apis", group, version, name]
            if version.starts_with('v') && (*name == "conversion.go" || *name == "defaults.go") =>
        {
            let kind = if *name == "conversion.go" {
                Kind::Conversion
            } else {
                Kind::Defaulting
            };
            watched(kind, group, "", format!("{group}/{version}/{name}"))
        }
        ["pkg", "apis", group, "validation", name] => watched(
            Kind::Validation,
            group,
            "",
            format!("{group}/validation/{name}"),
        ),
        ["pkg", "registry", rest @ .., "strategy.go"] if !rest.is_empty() => {
            // kubernetes: pkg/registry/<group>/<resource>/...; the other modules serve one
            // group each: pkg/registry/<resource>/...
            let (group, resource) = match module {
                "k8s.io/kubernetes" if rest.len() >= 2 => (rest[0], rest[1]),
                "k8s.io/apiextensions-apiserver" => ("apiextensions", rest[0]),
                "k8s.io/kube-aggregator" => ("apiregistration", rest[0]),
                _ => return None,
            };
            watched(
                Kind::Strategy,
                group,
                resource,
                format!("registry/{}/strategy.go", rest.join("/")),
            )
        }
        ["pkg", "api", area, ..] if module == "k8s.io/kubernetes" && *area != "legacyscheme" => {
            watched(
                Kind::StrategyHelper,
                area,
                "",
                path.trim_start_matches("pkg/").to_owned(),
            )
        }
        ["pkg", "printers", "internalversion", "printers.go"] => {
            watched(Kind::Printer, "", "", "printers.go".to_owned())
        }
        ["pkg", "controlplane", "instance.go"] => watched(
            Kind::ServedVersions,
            "",
            "",
            "controlplane/instance.go".to_owned(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_go_files_by_their_place() {
        let k = "k8s.io/kubernetes";
        let conversion = classify(k, "pkg/apis/core/v1/conversion.go");
        assert_eq!(
            conversion.map(|w| (w.kind, w.group, w.citation)),
            Some((
                Kind::Conversion,
                "core".into(),
                "core/v1/conversion.go".into()
            ))
        );
        let strategy = classify(k, "pkg/registry/core/pod/strategy.go");
        assert_eq!(
            strategy.map(|w| (w.kind, w.group, w.resource)),
            Some((Kind::Strategy, "core".into(), "pod".into()))
        );
        let crd = classify(
            "k8s.io/apiextensions-apiserver",
            "pkg/registry/customresourcedefinition/strategy.go",
        );
        assert_eq!(
            crd.map(|w| (w.group, w.resource)),
            Some(("apiextensions".into(), "customresourcedefinition".into()))
        );
        assert_eq!(
            classify(k, "pkg/apis/apps/validation/validation.go").map(|w| w.kind),
            Some(Kind::Validation)
        );
        assert_eq!(
            classify(k, "pkg/api/pod/util.go").map(|w| w.citation),
            Some("api/pod/util.go".into())
        );
        for ignored in [
            "pkg/apis/core/v1/zz_generated.conversion.go",
            "pkg/apis/core/v1/conversion_test.go",
            "pkg/apis/core/v1/register.go",
            "pkg/api/testing/fuzzer.go",
            "pkg/api/pod/testing/make.go",
            "pkg/registry/testapigroup/carp/strategy.go",
            "pkg/registry/core/pod/storage/storage.go",
        ] {
            assert_eq!(classify(k, ignored), None, "{ignored}");
        }
    }

    #[test]
    fn counterparts_are_conventional_paths_and_citations() {
        let ours = Ours {
            files: BTreeMap::from([
                ("k8s-types/src/defaults/core.rs".to_owned(), String::new()),
                (
                    "k8s-types/src/conversions/internal/core_v1.rs".to_owned(),
                    String::new(),
                ),
                (
                    "k8s-types/src/conversions/secret.rs".to_owned(),
                    "//! As Go's `core/v1/conversion.go` does.".to_owned(),
                ),
            ]),
        };
        let k = "k8s.io/kubernetes";
        let conversion = classify(k, "pkg/apis/core/v1/conversion.go");
        assert_eq!(
            conversion.map(|w| w.ours(&ours)),
            Some(vec![
                "k8s-types/src/conversions/internal/core_v1.rs".to_owned(),
                "k8s-types/src/conversions/secret.rs".to_owned(),
            ])
        );
        let defaults = classify(k, "pkg/apis/core/v1/defaults.go");
        assert_eq!(
            defaults.map(|w| w.ours(&ours)),
            Some(vec!["k8s-types/src/defaults/core.rs".to_owned()])
        );
        let none = classify(k, "pkg/apis/batch/v1/defaults.go");
        assert_eq!(none.map(|w| w.ours(&ours)), Some(Vec::new()));
    }
}
