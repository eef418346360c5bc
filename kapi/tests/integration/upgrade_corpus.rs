//! The cluster-upgrade workflow on a tree of real-world-looking manifests
//! (`tests/upgrade-corpus`, see its README): `kapi deprecations` finds every object of a
//! deprecated or removed API version, `kapi convert --in-place` upgrades the tree
//! minimally, and what it writes is what `upgraded/` holds, byte for byte.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TempDir, TestResult, kapi, stdout};
use serde_json::Value;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/upgrade-corpus")
}

/// The corpus's expected file `rel` (`in-place.txt`, `upgraded/...`) for the release kapi
/// is built for: `release-<release>/<rel>` where that release upgrades otherwise (1.37
/// serves ClusterTrustBundle in `certificates.k8s.io/v1`, so it converts what 1.36 kept),
/// else `<rel>`.
fn expected_file(rel: impl AsRef<Path>) -> PathBuf {
    let own = corpus()
        .join(format!("release-{}", crate::RELEASE_UNDER_TEST))
        .join(rel.as_ref());
    if own.is_file() {
        own
    } else {
        corpus().join(rel)
    }
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Result<Vec<PathBuf>, std::io::Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push(rel.to_path_buf());
            }
        }
    }
    out.sort();
    Ok(out)
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), std::io::Error> {
    for rel in files(from)? {
        let target = to.join(&rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(from.join(&rel), target)?;
    }
    Ok(())
}

/// `kapi deprecations` over the corpus, in its directory.
fn deprecations(args: &[&str]) -> Result<std::process::Output, Box<dyn std::error::Error>> {
    Ok(kapi()?
        .current_dir(corpus())
        .arg("deprecations")
        .args(args)
        .output()?)
}

#[test]
fn deprecations_lists_every_object_of_a_deprecated_or_removed_version() -> TestResult {
    let out = deprecations(&["-f", "input", "-R"])?;
    let expected = std::fs::read_to_string(corpus().join("deprecations.txt"))?;
    assert_eq!(String::from_utf8(out.stdout)?, expected);
    // Removed versions fail the run (the CI gate).
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr)?;
    assert!(
        stderr.contains("input/charts/redis/templates/pdb.yaml: document 0: ")
            && stderr.contains("helm template"),
        "{stderr}"
    );
    assert!(
        stderr.contains("30 objects on API versions Kubernetes 1.37 no longer serves, 2 on deprecated ones (41 objects in 19 files)"),
        "{stderr}"
    );
    Ok(())
}

/// The corpus covers the removals upgrades stumble on, and what 1.37 deprecates.
#[test]
fn deprecations_cover_each_release_s_removals() -> TestResult {
    let out = deprecations(&["-f", "input", "-R", "-o", "json"])?;
    let report: Value = serde_json::from_slice(&out.stdout)?;
    assert_eq!(report["targetVersion"], "1.37");
    let items = report["items"].as_array().ok_or("no items")?;
    let removed_in = |release: &str| {
        items
            .iter()
            .filter(|i| i["status"] == "removed" && i["removedIn"] == release)
            .count()
    };
    for (release, count) in [
        ("1.16", 7),
        ("1.22", 12),
        ("1.25", 7),
        ("1.26", 2),
        ("1.29", 1),
        ("1.32", 1),
    ] {
        assert_eq!(removed_in(release), count, "removed in {release}");
    }
    let deprecated_1_37: Vec<&str> = items
        .iter()
        .filter(|i| i["status"] == "deprecated" && i["deprecatedIn"] == "1.37")
        .filter_map(|i| i["kind"].as_str())
        .collect();
    assert_eq!(
        deprecated_1_37,
        ["MutatingAdmissionPolicy", "ClusterTrustBundle"]
    );
    // YAML is the same report.
    let yaml = deprecations(&["-f", "input/shop", "-R", "-o", "yaml"])?;
    let yaml = String::from_utf8(yaml.stdout)?;
    assert!(
        yaml.starts_with("items:\n- apiVersion: autoscaling/v2beta2\n"),
        "{yaml}"
    );
    assert!(yaml.ends_with("targetVersion: \"1.37\"\n"), "{yaml}");
    Ok(())
}

#[test]
fn deprecations_of_helm_output_name_each_template() -> TestResult {
    let rendered = std::fs::read(corpus().join("input/charts/rendered.yaml"))?;
    let out = kapi()?
        .args(["deprecations", "-f", "-", "-o", "json"])
        .write_stdin(rendered)
        .output()?;
    let report: Value = serde_json::from_slice(&out.stdout)?;
    let found: Vec<(String, String)> = report["items"]
        .as_array()
        .ok_or("no items")?
        .iter()
        .map(|i| (i["file"].to_string(), i["source"].to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("\"<stdin>\"", "\"redis/templates/pdb.yaml\""),
            (
                "\"<stdin>\"",
                "\"redis/templates/redis-master-statefulset.yaml\""
            ),
            ("\"<stdin>\"", "\"redis/templates/ingress.yaml\""),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    Ok(())
}

#[test]
fn the_target_release_decides_what_is_removed() -> TestResult {
    // Before 1.16 nothing of shop/ was removed yet: listed as deprecated, exit 0.
    let before = deprecations(&["-f", "input/shop", "-R", "--target-version", "1.15"])?;
    assert_eq!(before.status.code(), Some(0));
    let table = String::from_utf8(before.stdout)?;
    assert!(table.contains("extensions/v1beta1   deprecated"), "{table}");
    assert!(!table.contains(" removed "), "{table}");
    let at = deprecations(&["-f", "input/shop", "-R", "--target-version", "v1.16.3"])?;
    assert_eq!(at.status.code(), Some(1));
    // Deprecated in 1.37 and not removed: listed, not failing.
    let only_deprecated = deprecations(&["-f", "input/platform/admission-policies.yaml"])?;
    assert_eq!(only_deprecated.status.code(), Some(0));
    assert!(String::from_utf8(only_deprecated.stdout)?.contains("deprecated   1.37         1.40"));
    let bad = deprecations(&["-f", "input", "--target-version", "latest"])?;
    assert_eq!(bad.status.code(), Some(2), "clap refuses the value");
    Ok(())
}

/// The upgrade itself: each file as `upgraded/` has it (or untouched), the report as
/// `in-place.txt` has it.
#[test]
fn in_place_upgrades_the_tree_minimally() -> TestResult {
    let dir = TempDir::new("upgrade", "in-place");
    copy_tree(&corpus().join("input"), &dir.0.join("input"))?;
    let out = kapi()?
        .current_dir(&dir.0)
        .args(["convert", "-f", "input", "-R", "--in-place"])
        .output()?;
    let expected = std::fs::read_to_string(expected_file("in-place.txt"))?;
    assert_eq!(String::from_utf8(out.stdout)?, expected);
    // Objects left for a person and a template that does not parse: exit 1.
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr)?;
    assert!(
        stderr.contains("input/charts/redis/templates/pdb.yaml: document 0: ")
            && stderr.contains("(file left untouched)"),
        "{stderr}"
    );
    let mut failures = Vec::new();
    for rel in files(&corpus().join("input"))? {
        let upgraded = expected_file(Path::new("upgraded").join(&rel));
        let want = if upgraded.exists() {
            std::fs::read(upgraded)?
        } else {
            std::fs::read(corpus().join("input").join(&rel))?
        };
        let got = std::fs::read(dir.0.join("input").join(&rel))?;
        if got != want {
            failures.push(format!(
                "{}:\n--- expected\n{}\n--- kapi\n{}",
                rel.display(),
                String::from_utf8_lossy(&want),
                String::from_utf8_lossy(&got)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Once upgraded, there is nothing more to do: nothing is rewritten.
    let again = kapi()?
        .current_dir(&dir.0)
        .args(["convert", "-f", "input", "-R", "--in-place"])
        .output()?;
    let report = String::from_utf8(again.stdout)?;
    // 1.36 keeps the ClusterTrustBundle on its deprecated version (its replacement is
    // newer than 1.36); 1.37 converted it.
    let kept = match crate::RELEASE_UNDER_TEST {
        "1.36" => "1 object kept on deprecated versions, ",
        _ => "",
    };
    assert!(
        report.ends_with(&format!("0 files changed, 0 objects converted, 3 objects left for a person, {kept}1 file not read or not parsed (untouched)\n")),
        "{report}"
    );
    for rel in files(&corpus().join("upgraded"))? {
        assert_eq!(
            std::fs::read(dir.0.join("input").join(&rel))?,
            std::fs::read(expected_file(Path::new("upgraded").join(&rel)))?,
            "{}",
            rel.display()
        );
    }
    Ok(())
}

/// What --in-place writes is what kube-apiserver accepts (`kapi validate` runs Go's
/// validation): the selectors apps/v1 requires are there and match.
#[test]
fn upgraded_manifests_pass_the_api_server_s_validation() -> TestResult {
    let upgraded = corpus().join("upgraded");
    let mut cmd = kapi()?;
    cmd.arg("validate");
    for rel in [
        "shop/base/web.yaml",
        "shop/base/worker.yaml",
        "shop/base/autoscaling.yaml",
        "monitoring/node-exporter.yaml",
        "charts/rendered.yaml",
        "platform/flowcontrol/apf.yaml",
        "platform/metrics-apiservice.yaml",
    ] {
        cmd.arg("-f").arg(upgraded.join(rel));
    }
    let out = cmd.output()?;
    let stderr = String::from_utf8(out.stderr)?;
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8(out.stdout)?, "21 valid, 0 invalid\n");
    Ok(())
}

/// `--minimal` to standard output writes the same text as --in-place, and says which
/// defaults change; the default output stays kubectl convert's.
#[test]
fn minimal_output_leaves_out_kubectl_convert_s_defaults() -> TestResult {
    let input = corpus().join("input/shop/base/web.yaml");
    let input = input.to_str().ok_or("not UTF-8")?;
    let out = kapi()?
        .args(["convert", "--minimal", "-f", input])
        .output()?;
    assert!(out.status.success());
    assert_eq!(
        out.stdout,
        std::fs::read(corpus().join("upgraded/shop/base/web.yaml"))?
    );
    let notes = String::from_utf8(out.stderr)?;
    assert!(
        notes.contains("spec.revisionHistoryLimit defaults to 10 in apps/v1 (it was 2147483647 in extensions/v1beta1)"),
        "{notes}"
    );
    let full = stdout(kapi()?.args(["convert", "-f", input]))?;
    assert!(full.contains("revisionHistoryLimit: 2147483647"), "{full}");
    assert!(!String::from_utf8(out.stdout)?.contains("revisionHistoryLimit"));

    // JSON keeps its keys' order; -o json writes kubectl's four-space indent.
    let json = corpus().join("input/shop/base/network-policy.json");
    let out = stdout(kapi()?.args([
        "convert",
        "--minimal",
        "-o",
        "json",
        "-f",
        json.to_str().ok_or("not UTF-8")?,
    ]))?;
    assert!(
        out.starts_with("{\n    \"apiVersion\": \"networking.k8s.io/v1\",\n    \"kind\": \"NetworkPolicy\",\n    \"metadata\": {\n"),
        "{out}"
    );
    Ok(())
}

#[test]
fn minimal_flags_are_refused_where_they_mean_nothing() -> TestResult {
    let input = corpus().join("input/shop/base/web.yaml");
    let input = input.to_str().ok_or("not UTF-8")?;
    let protobuf = kapi()?
        .args(["convert", "--minimal", "-o", "protobuf", "-f", input])
        .output()?;
    assert!(!protobuf.status.success());
    let stdin = kapi()?
        .args(["convert", "--in-place", "-f", "-"])
        .write_stdin("apiVersion: v1\nkind: ConfigMap\n")
        .output()?;
    assert!(String::from_utf8(stdin.stderr)?.contains("standard input"));
    Ok(())
}

/// A version the target deprecates but still serves, with nothing to convert it to, is
/// kept as it is (reported, not an error); once the target removes it, it is left for a
/// person (an error).
#[test]
fn deprecated_versions_without_a_conversion_wait_until_removed() -> TestResult {
    let dir = TempDir::new("upgrade", "kept");
    let endpoints = "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: db\nsubsets:\n- addresses: [{ip: 10.0.0.1}]\n  ports: [{port: 5432}]\n";
    let file = dir.0.join("endpoints.yaml");
    std::fs::write(&file, endpoints)?;
    let file = file.to_str().ok_or("not UTF-8")?;
    let out = kapi()?
        .args(["convert", "-f", file, "--in-place"])
        .output()?;
    assert_eq!(out.status.code(), Some(0));
    let report = String::from_utf8(out.stdout)?;
    assert!(
        report.contains("Endpoints db: kept, its version still served: deprecated in 1.33; its replacement is another kind, discovery.k8s.io/v1 EndpointSlice: move to it by hand"),
        "{report}"
    );
    assert!(report.ends_with("0 files changed, 0 objects converted, 0 objects left for a person, 1 object kept on deprecated versions\n"), "{report}");
    assert_eq!(std::fs::read_to_string(file)?, endpoints);

    let psp =
        "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: p}\nspec: {}\n";
    std::fs::write(file, psp)?;
    let before = kapi()?
        .args([
            "convert",
            "-f",
            file,
            "--in-place",
            "--target-version",
            "1.24",
        ])
        .output()?;
    assert_eq!(before.status.code(), Some(0));
    let removed = kapi()?
        .args(["convert", "-f", file, "--in-place"])
        .output()?;
    assert_eq!(removed.status.code(), Some(1));
    assert!(String::from_utf8(removed.stdout)?.contains("PodSecurityPolicy p: left for a person: policy/v1beta1 PodSecurityPolicy was removed in Kubernetes 1.25"));
    Ok(())
}
