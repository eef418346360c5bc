//! The dependency order of `apimachinery`'s modules (stated in the crate docs), checked
//! on the sources: each module may name only the modules below it. Lower layers never
//! import the codecs (`serializer`), and the object model never imports a codec either,
//! so that the value types, `meta/v1` and the `Scheme` can be read, used and built
//! without them.
//!
//! What is checked: every `crate::<module>` path in a module's non-test code (test
//! modules — from a `#[cfg(test)]` at the start of a line to the end of the file — and
//! `tests.rs` / `*_tests.rs` files are skipped; comment lines are ignored). Code that a
//! derive writes into a module is not seen here. A layer may be a nested module
//! (`api::errors`): its files and the paths naming it belong to it, not to its parent.

// A missing source directory is a broken checkout: the helpers fail the test loudly.
#![allow(clippy::panic)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and the modules it may use, lowest layer first.
const LAYERS: &[(&str, &[&str])] = &[
    ("schema", &[]),
    ("version", &[]),
    ("fx_hash", &[]),
    ("field_index", &[]),
    ("exact_vec", &[]),
    // The generated types' list fields' `Clone` and `Debug` (issue 44).
    ("list_field", &[]),
    // The generated types' plain string fields' `Clone`.
    ("string_field", &[]),
    // Reading already-checked ASCII bytes as text (JSON reader, protobuf strings).
    ("text", &[]),
    // Short byte strings appended by word (the JSON writer, protobuf's short fields).
    ("append", &[]),
    ("util", &["schema", "version", "fx_hash", "append"]),
    // Embedded JSON's serde path, on util::json's check and compaction (which the
    // JSON writer uses directly).
    ("raw_json", &["util"]),
    ("scheme_error", &["schema"]),
    // As Go's pkg/labels, which validates keys and values with pkg/util/validation.
    ("labels", &["util"]),
    ("fields", &[]),
    ("api", &["schema", "util", "raw_json"]),
    (
        "proto",
        &["schema", "util", "api", "exact_vec", "text", "append"],
    ),
    (
        "apis",
        &[
            "schema",
            "version",
            "util",
            "api",
            "proto",
            "raw_json",
            "fx_hash",
            "field_index",
            "string_field",
        ],
    ),
    ("managedfields", &["schema", "util", "apis", "fx_hash"]),
    ("structural_schema", &["util", "api", "apis"]),
    (
        "conversion",
        &[
            "schema",
            "util",
            "api",
            "apis",
            "fx_hash",
            "field_index",
            "scheme_error",
        ],
    ),
    (
        "runtime",
        &[
            "schema",
            "version",
            "util",
            "api",
            "proto",
            "apis",
            "conversion",
            "raw_json",
            "fx_hash",
            "field_index",
            "exact_vec",
            "scheme_error",
            "text",
        ],
    ),
    (
        "meta",
        &["schema", "version", "util", "apis", "runtime", "fx_hash"],
    ),
    (
        "serializer",
        &[
            "schema",
            "version",
            "util",
            "api",
            "proto",
            "apis",
            "conversion",
            "runtime",
            "meta",
            "raw_json",
            "fx_hash",
            "field_index",
        ],
    ),
    ("api::errors", &["schema", "util", "apis", "runtime"]),
];

/// The layer a `crate::` path names: the longest layer that is the path or a module
/// path it starts with.
fn layer_of<'a>(path: &str, known: &BTreeSet<&'a str>) -> Option<&'a str> {
    known
        .iter()
        .filter(|m| path == **m || path.starts_with(&format!("{m}::")))
        .max_by_key(|m| m.len())
        .copied()
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path.to_owned());
        }
    }
}

/// The `crate::<module>` paths named in a file's non-test code, with their line numbers:
/// the module, and the whole path.
fn crate_paths(text: &str) -> Vec<(usize, String, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let module: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let path: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            // `$crate::` in macros and `apimachinery_crate::` names are not crate paths.
            let preceded = rest[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
            rest = &after[module.len()..];
            if !preceded && !module.is_empty() {
                found.push((number + 1, module, path));
            }
        }
    }
    found
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let known: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    let mut violations = Vec::new();
    for (module, allowed) in LAYERS {
        let dir = module.replace("::", "/");
        let mut files = Vec::new();
        rust_files(&src.join(&dir), &mut files);
        rust_files(&src.join(format!("{dir}.rs")), &mut files);
        // The files of a nested layer are its own, not its parent's.
        files.retain(|file| {
            let relative = file.strip_prefix(&src).unwrap_or(file).with_extension("");
            let as_path = relative.to_string_lossy().replace('/', "::");
            layer_of(&as_path, &known) == Some(*module)
        });
        assert!(!files.is_empty(), "module {module} has no source files");
        for file in files {
            let text =
                fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for (line, _, path) in crate_paths(&text) {
                let path = path.trim_start_matches("crate::").trim_end_matches(':');
                // Crate-root items (the derives, `identity_conversion!`) are not modules.
                let permitted = match layer_of(path, &known) {
                    None => true,
                    Some(used) => used == *module || allowed.contains(&used),
                };
                if !permitted {
                    violations.push(format!(
                        "{}:{line}: {module} uses {path}",
                        file.strip_prefix(&src).unwrap_or(&file).display()
                    ));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "modules that use a layer above (or beside) them:\n{}",
        violations.join("\n")
    );
}

#[test]
fn every_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let known: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    for line in lib.lines() {
        let declared = line
            .trim()
            .strip_prefix("pub mod ")
            .or_else(|| line.trim().strip_prefix("mod "))
            .and_then(|rest| rest.strip_suffix(';'));
        if let Some(module) = declared {
            assert!(
                known.contains(module),
                "module {module} is not in the layer table of tests/integration/module_layers.rs"
            );
        }
    }
}

#[test]
fn a_path_belongs_to_its_longest_layer() {
    let known: BTreeSet<&str> = LAYERS.iter().map(|(m, _)| *m).collect();
    assert_eq!(
        layer_of("api::errors::StatusError", &known),
        Some("api::errors")
    );
    assert_eq!(layer_of("api::resource::Quantity", &known), Some("api"));
    assert_eq!(layer_of("api", &known), Some("api"));
    assert_eq!(layer_of("apis::meta", &known), Some("apis"));
    assert_eq!(layer_of("identity_conversion", &known), None);
}

#[test]
fn the_checker_sees_crate_paths() {
    let found = crate_paths(
        "use crate::runtime::Object;\n// crate::serializer in a comment\nlet x = $crate::a::b; y(crate::api::X)\n#[cfg(test)]\nuse crate::meta;",
    );
    let modules: Vec<&str> = found.iter().map(|(_, m, _)| m.as_str()).collect();
    assert_eq!(modules, ["runtime", "api"]);
}
