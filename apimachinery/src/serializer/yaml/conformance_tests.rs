//! `json_to_yaml` against what Go wrote: the Kubernetes 1.36 fixtures of
//! `../shared/k8s-api/v1.36/testdata` (or `$K8S_API_TESTDATA`) and the `kubectl` 1.32
//! captures in `testdata/`.
//!
//! Without the fixtures (a checkout without `../shared`) the fixture test passes with a
//! note, unless `CI` is set, where missing fixtures are a failure.

use std::path::{Path, PathBuf};

use super::{json_to_yaml, yaml_to_json};

/// Go's fixtures: `$K8S_API_TESTDATA`, else the shared checkout beside this one.
pub(super) fn fixtures_dir() -> PathBuf {
    std::env::var_os("K8S_API_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/k8s-api/v1.36/testdata"),
        PathBuf::from,
    )
}

/// The module's own captures.
pub(super) fn testdata_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/serializer/yaml/testdata")
}

/// The files of `dir` named `*.{extension}`, sorted; none when `dir` cannot be read.
pub(super) fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == extension))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The first line where two texts differ, for a readable failure.
fn first_difference(want: &str, got: &str) -> String {
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!("line {}:\n  want {w:?}\n  got  {g:?}", i + 1);
        }
    }
    format!(
        "lengths differ: want {} lines, got {}",
        want.lines().count(),
        got.lines().count()
    )
}

#[test]
fn writes_every_upstream_fixture_byte_for_byte() {
    let dir = fixtures_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "fixtures not found at {}",
            dir.display()
        );
        eprintln!("note: no fixtures at {}; skipped", dir.display());
        return;
    };
    let mut stems: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".yaml").map(str::to_owned)
        })
        .collect();
    stems.sort();
    let mut failures = Vec::new();
    for stem in &stems {
        let json = std::fs::read_to_string(dir.join(format!("{stem}.json"))).unwrap();
        let want = std::fs::read_to_string(dir.join(format!("{stem}.yaml"))).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let got = json_to_yaml(&value);
        if got != want {
            failures.push(format!("{stem}: {}", first_difference(&want, &got)));
            continue;
        }
        // And back: Go's YAML reads as the JSON it came from.
        match yaml_to_json(&want) {
            Ok(doc) if doc.value == value && doc.duplicate_keys.is_empty() => {}
            Ok(_) => failures.push(format!("{stem}: YAML reads back as a different value")),
            Err(e) => failures.push(format!("{stem}: YAML does not read back: {e}")),
        }
    }
    assert!(stems.len() >= 100, "only {} fixtures", stems.len());
    assert!(
        failures.is_empty(),
        "{} of {} fixtures differ:\n{}",
        failures.len(),
        stems.len(),
        failures.join("\n")
    );
}

/// Every `NAME.json` in `testdata/` next to the `NAME.yaml` kubectl wrote for it.
/// `YAML_KUBECTL_CAPTURES=dir` checks the captures of another folder instead (made with
/// `testdata/capture.sh` from random inputs, say).
#[test]
fn writes_what_kubectl_writes() {
    let dir = std::env::var_os("YAML_KUBECTL_CAPTURES").map_or_else(testdata_dir, PathBuf::from);
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    for json_path in names {
        let yaml_path = json_path.with_extension("yaml");
        let Ok(want) = std::fs::read_to_string(&yaml_path) else {
            continue;
        };
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        let got = json_to_yaml(&value);
        if got != want {
            failures.push(format!(
                "{}: {}",
                json_path.display(),
                first_difference(&want, &got)
            ));
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} kubectl captures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every `read/NAME.yaml` reads as the `read/NAME.json` Go's `YAMLToJSON` made of it
/// (through kubectl, so numbers are what Go's `Unstructured` holds); a `NAME.yaml`
/// without a `NAME.json` is one Go rejects, and must be an error here too.
/// `YAML_KUBECTL_READ_CAPTURES=dir` checks another folder of captures instead.
#[test]
fn reads_what_kubectl_reads() {
    let dir = std::env::var_os("YAML_KUBECTL_READ_CAPTURES")
        .map_or_else(|| testdata_dir().join("read"), PathBuf::from);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 2);
    let mut failures = Vec::new();
    for yaml_path in names {
        let got = yaml_to_json(&std::fs::read_to_string(&yaml_path).unwrap());
        let want = std::fs::read_to_string(yaml_path.with_extension("json"))
            .ok()
            .map(|text| serde_json::from_str::<serde_json::Value>(&text).unwrap());
        match (want, got) {
            (Some(want), Ok(doc)) if doc.value == want => {}
            (None, Err(_)) => {}
            (Some(want), Ok(doc)) => failures.push(format!(
                "{}: want {want}\n  got {}",
                yaml_path.display(),
                doc.value
            )),
            (Some(_), Err(e)) => failures.push(format!("{}: {e}", yaml_path.display())),
            (None, Ok(doc)) => failures.push(format!(
                "{}: Go rejects it, we read {}",
                yaml_path.display(),
                doc.value
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
