//! Reading one `k8s.io/api` release's lifecycle data: the `APILifecycle*` methods of
//! each package that has a `zz_generated.prerelease-lifecycle.go`, checked against the
//! `+k8s:prerelease-lifecycle-gen:` markers of its hand-written files.
//!
//! The methods are what Go's API server calls, and they hold what the markers leave
//! implicit (`prerelease-lifecycle-gen` deprecates a beta three releases after its
//! introduction and removes it three after that when the markers say nothing), so they
//! are the values read. They are read from every file of the package: the generator
//! writes none that the package defines by hand (`core/v1/lifecycle.go` deprecates
//! `ComponentStatus` and `Endpoints` so). A marker that disagrees with them is an
//! error, as is a type with markers and no methods, which would mean this reader missed
//! something.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{Entry, Kind, Release};
use crate::Error;
use crate::gomod::read_dir_sorted;

/// The generated file of a package with lifecycle methods.
const GENERATED: &str = "zz_generated.prerelease-lifecycle.go";

/// The marker prefix.
const MARKER: &str = "+k8s:prerelease-lifecycle-gen:";

/// Every kind with lifecycle methods in the module at `dir`, keyed by (group, version,
/// kind).
pub fn read_module(dir: &Path) -> Result<BTreeMap<(String, String, String), Entry>, Error> {
    let mut out = BTreeMap::new();
    for package in packages(dir)? {
        let version = package
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let group = group_name(&package)?;
        let files = go_files(&package)?;
        let compiled = methods(&files)?;
        check_markers(&files, &compiled)?;
        for (kind, entry) in compiled {
            out.insert((group.clone(), version.clone(), kind), entry);
        }
    }
    Ok(out)
}

/// The packages of the module that hold a generated lifecycle file, sorted: the
/// `<group>/<version>` directories of `k8s.io/api`, the `pkg/apis/<group>/<version>`
/// ones of `apiextensions-apiserver` and `kube-aggregator`.
fn packages(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        if d.join(GENERATED).is_file() {
            out.push(d.clone());
        }
        for entry in read_dir_sorted(&d)? {
            let name = entry.file_name().map(|n| n.to_string_lossy().into_owned());
            if entry.is_dir() && !name.is_some_and(|n| n == "testdata" || n == "vendor") {
                stack.push(entry);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The package's API group: `register.go`'s `const GroupName = "..."`, else `doc.go`'s
/// `+groupName=` tag.
fn group_name(package: &Path) -> Result<String, Error> {
    let register = package.join("register.go");
    if register.is_file() {
        for line in read(&register)?.lines() {
            if let Some(rest) = line.trim().strip_prefix("const GroupName = ") {
                return Ok(rest.trim().trim_matches('"').to_owned());
            }
        }
    }
    let doc = package.join("doc.go");
    if doc.is_file() {
        for line in read(&doc)?.lines() {
            if let Some(rest) = line.trim().strip_prefix("// +groupName=") {
                return Ok(rest.trim().to_owned());
            }
        }
    }
    Err(Error::Model(format!(
        "{}: no GroupName in register.go and no +groupName in doc.go",
        package.display()
    )))
}

/// The package's Go files, tests left out, sorted.
fn go_files(package: &Path) -> Result<Vec<PathBuf>, Error> {
    Ok(read_dir_sorted(package)?
        .into_iter()
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| n.ends_with(".go") && !n.ends_with("_test.go"))
        })
        .collect())
}

/// Every type's `APILifecycle*` methods in `files`.
///
/// Each is `func (r *T) APILifecycleX() ... {`, its body one `return` line, as
/// `prerelease-lifecycle-gen` writes them and as the hand-written ones are.
fn methods(files: &[PathBuf]) -> Result<BTreeMap<String, Entry>, Error> {
    let mut out: BTreeMap<String, Entry> = BTreeMap::new();
    for path in files {
        methods_of_file(path, &mut out)?;
    }
    // Go reads (0, 0) as "none" (deprecation.IsDeprecated, RemovedRelease).
    for entry in out.values_mut() {
        for r in [&mut entry.deprecated, &mut entry.removed] {
            if *r == Some(Release::default()) {
                *r = None;
            }
        }
    }
    Ok(out)
}

fn methods_of_file(path: &Path, out: &mut BTreeMap<String, Entry>) -> Result<(), Error> {
    let text = read(path)?;
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some((ty, method)) = lifecycle_method(line) else {
            continue;
        };
        let bad = |what: &str| Error::Model(format!("{}:{}: {what}", path.display(), n + 1));
        let body = lines
            .next()
            .and_then(|(_, l)| l.trim().strip_prefix("return "))
            .ok_or_else(|| bad("a method whose body is not one return"))?;
        let entry = out.entry(ty.to_owned()).or_default();
        match method {
            "Introduced" => entry.introduced = Some(release_pair(body).ok_or_else(|| bad(body))?),
            "Deprecated" => entry.deprecated = Some(release_pair(body).ok_or_else(|| bad(body))?),
            "Removed" => entry.removed = Some(release_pair(body).ok_or_else(|| bad(body))?),
            "Replacement" => entry.replacement = Some(go_gvk(body).ok_or_else(|| bad(body))?),
            other => return Err(bad(&format!("unknown method APILifecycle{other}"))),
        }
    }
    Ok(())
}

/// The receiver type and method suffix of a line `func (r *T) APILifecycleX() ...`.
fn lifecycle_method(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("func (")?;
    let (receiver, rest) = rest.split_once(')')?;
    let ty = receiver.split_whitespace().last()?.trim_start_matches('*');
    let method = rest.trim_start().strip_prefix("APILifecycle")?;
    Some((ty, method.split('(').next().unwrap_or_default()))
}

/// `1, 25` as a release.
fn release_pair(body: &str) -> Option<Release> {
    let (major, minor) = body.split_once(',')?;
    Some(Release {
        major: major.trim().parse().ok()?,
        minor: minor.trim().parse().ok()?,
    })
}

/// `schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}`.
fn go_gvk(body: &str) -> Option<Kind> {
    let fields = body
        .strip_prefix("schema.GroupVersionKind{")?
        .strip_suffix('}')?;
    let mut kind = Kind::default();
    for field in fields.split(',') {
        let (name, value) = field.split_once(':')?;
        let value = value
            .trim()
            .strip_prefix('"')?
            .strip_suffix('"')?
            .to_owned();
        match name.trim() {
            "Group" => kind.group = value,
            "Version" => kind.version = value,
            "Kind" => kind.kind = value,
            _ => return None,
        }
    }
    Some(kind)
}

/// The markers on each type of the package's files, checked against its methods: each
/// marker given must be what the method returns.
fn check_markers(files: &[PathBuf], compiled: &BTreeMap<String, Entry>) -> Result<(), Error> {
    for file in files {
        for (ty, markers, line) in type_markers(&read(file)?) {
            let at = || format!("{}:{line}: {ty}", file.display());
            let entry = compiled.get(&ty).ok_or_else(|| {
                Error::Model(format!("{}: markers but no methods in {GENERATED}", at()))
            })?;
            for (key, value) in markers {
                let agrees = match key.as_str() {
                    "introduced" => release_marker(&value) == entry.introduced,
                    "deprecated" => release_marker(&value) == entry.deprecated,
                    "removed" => release_marker(&value) == entry.removed,
                    "replacement" => {
                        let parts: Vec<&str> = value.split(',').map(str::trim).collect();
                        entry.replacement.as_ref().is_some_and(|k| {
                            parts == [k.group.as_str(), k.version.as_str(), k.kind.as_str()]
                        })
                    }
                    _ => true,
                };
                if !agrees {
                    return Err(Error::Model(format!(
                        "{}: marker {key}={value} disagrees with {GENERATED} ({entry:?})",
                        at()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// `1.25` as a release.
fn release_marker(value: &str) -> Option<Release> {
    let (major, minor) = value.trim().split_once('.')?;
    Some(Release {
        major: major.parse().ok()?,
        minor: minor.parse().ok()?,
    })
}

/// A type's lifecycle markers: its name, the `(key, value)` pairs and the line of its
/// declaration.
type TypeMarkers = (String, Vec<(String, String)>, usize);

/// The lifecycle markers of each type declared in `text` that has some, with the
/// declaration's line: the markers of every comment line since the previous line of
/// code (Go's generators read the comment block right above a type and the block above
/// that, the one tags are written in).
fn type_markers(text: &str) -> Vec<TypeMarkers> {
    let mut out = Vec::new();
    let mut markers = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix("//") {
            if let Some(marker) = comment.trim().strip_prefix(MARKER) {
                if let Some((key, value)) = marker.split_once('=') {
                    markers.push((key.trim().to_owned(), value.trim().to_owned()));
                }
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("type ") {
            let name = rest.split_whitespace().next().unwrap_or_default();
            if !markers.is_empty() {
                out.push((name.to_owned(), std::mem::take(&mut markers), n + 1));
            }
        }
        markers.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_read_from_the_blocks_above_a_type() {
        let text = "// +k8s:prerelease-lifecycle-gen:introduced=1.8\n// +k8s:prerelease-lifecycle-gen:replacement=batch,v1,CronJob\n\n// CronJob is a job.\ntype CronJob struct {\n}\n\nvar x = 1\n// Other has none.\ntype Other struct{}\n";
        let found = type_markers(text);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "CronJob");
        assert_eq!(
            found[0].1,
            [
                ("introduced".to_owned(), "1.8".to_owned()),
                ("replacement".to_owned(), "batch,v1,CronJob".to_owned())
            ]
        );
        assert_eq!(found[0].2, 5);
    }

    #[test]
    fn compiled_values_are_parsed() {
        assert_eq!(
            lifecycle_method("func (in *CronJob) APILifecycleRemoved() (major, minor int) {"),
            Some(("CronJob", "Removed"))
        );
        assert_eq!(
            lifecycle_method("func (in *CronJob) DeepCopy() *CronJob {"),
            None
        );
        assert_eq!(
            release_pair("1, 25"),
            Some(Release {
                major: 1,
                minor: 25
            })
        );
        let gvk = go_gvk(r#"schema.GroupVersionKind{Group: "", Version: "v1", Kind: "Pod"}"#);
        assert_eq!(
            gvk,
            Some(Kind {
                group: String::new(),
                version: "v1".into(),
                kind: "Pod".into()
            })
        );
        assert_eq!(
            release_marker("1.16"),
            Some(Release {
                major: 1,
                minor: 16
            })
        );
    }
}
