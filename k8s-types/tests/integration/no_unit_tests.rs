//! `k8s-types` builds no unit tests (`[lib] test = false` in its Cargo.toml: they would
//! compile its generated lines a second time), so a `#[cfg(test)]` module in its sources
//! compiles nowhere and its tests never run. This keeps them out: tests live here.
#![allow(clippy::expect_used)]

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("the crate's sources can be listed");
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn sources_hold_no_cfg_test_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(!files.is_empty(), "no sources under {}", src.display());
    let mut found: Vec<String> = files
        .iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .expect("the crate's sources can be read")
                .lines()
                .any(|l| l.trim_start().starts_with("#[cfg(test)]"))
        })
        .map(|f| f.strip_prefix(&src).unwrap_or(f).display().to_string())
        .collect();
    found.sort();
    assert!(
        found.is_empty(),
        "#[cfg(test)] in k8s-types/src: {}. k8s-types builds no unit tests (`[lib] test = false` \
         in its Cargo.toml), so these never run; test through the public API in \
         k8s-types/tests/integration/ instead",
        found.join(", ")
    );
}
