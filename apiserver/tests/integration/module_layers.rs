//! The shape of `apiserver` (the crate docs draw it), checked on the sources:
//!
//! - each module imports only the layers below its own (resource modules may use each
//!   other, as Go's `pkg/registry` packages do), so `storage` knows nothing of the
//!   registry, the registry nothing of authentication or endpoints, and the endpoints
//!   nothing of a particular resource;
//! - no module imports one that imports it back: the imports between the crate's
//!   modules, file by file, have no cycle;
//! - no resource is matched by name in generic code: the built-in resources' names and
//!   kinds appear there only where Go keeps them centrally too (listed below, with Go's
//!   file);
//! - no source file is longer than 800 lines, but the generated ones.
//!
//! What is read: every `crate::`, `super::` and `self::` path in a module's non-test
//! code (test modules — from a `#[cfg(test)]` at the start of a line to the end of the
//! file — and `tests.rs` files are skipped; comment lines are ignored), grouped imports
//! (`use crate::{a::b, c}`) expanded.

// A missing source directory is a broken checkout: the helpers fail the test loudly.
#![allow(clippy::panic, clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use apimachinery::runtime::Scheme;
use apiserver::registry::resources_from_scheme;

/// The layers, bottom first: a module may import modules of a lower layer; of its own
/// layer, only in the resource layer (and always its own submodules).
const LAYERS: &[&[&str]] = &[
    // Leaves: Go's `authentication/user` and `endpoints/request`, the OpenAPI
    // documents, the connection workers' thread marks, the served versions' settings.
    &[
        "worker",
        "openapi",
        "authentication::user",
        "endpoints::request_info",
        "resource_config",
    ],
    &["storage"],
    // The generic registry (Go's `k8s.io/apiserver/pkg/registry`) and the audit log.
    &["registry", "audit"],
    // Each behind its own trait: `Authenticator`, `Authorizer`, the admission plugins.
    &["authentication", "authorization", "admission"],
    // The endpoints (handlers per verb, negotiation, field manager) and discovery.
    &["endpoints", "discovery"],
    // The resource modules (Go's `k8s.io/kubernetes/pkg/registry` and
    // apiextensions-apiserver).
    &[
        "apiextensions",
        "registry::admissionregistration",
        "registry::apiextensions",
        "registry::apiregistration",
        "registry::apiserverinternal",
        "registry::apps",
        "registry::authentication",
        "registry::authorization",
        "registry::autoscaling",
        "registry::batch",
        "registry::builtin",
        "registry::certificates",
        "registry::coordination",
        "registry::core",
        "registry::dependencies",
        "registry::discovery",
        "registry::events",
        "registry::flowcontrol",
        "registry::lifecycle",
        "registry::networking",
        "registry::node",
        "registry::policy",
        "registry::rbac",
        "registry::resource",
        "registry::scheduling",
        "registry::storage",
        "registry::storagemigration",
    ],
    // The server: config, filter chain, installer, listeners.
    &["server"],
];

/// Where generic code names a built-in resource because Go keeps the same fact in one
/// central place too: `(file, name, Go's place)`.
const NAMED_IN_GENERIC_CODE: &[(&str, &str, &str)] = &[
    (
        "endpoints/request_info.rs",
        "namespaces",
        "the path grammar of Go's RequestInfoFactory (`namespaces/{name}/...`)",
    ),
    (
        "registry/resource_info.rs",
        "*",
        "Go's storage factory: SpecialDefaultResourcePrefixes, the storage versions, and the cohabiting Event APIs",
    ),
    (
        "registry/event_conversion.rs",
        "Event",
        "Go's cohabiting Event APIs, converted through their shared internal type",
    ),
    (
        "server/filters/impersonation.rs",
        "*",
        "Go's impersonation filter: a service account's user name is impersonated as its serviceaccounts object",
    ),
    // Not the resources, the same words.
    (
        "audit/mod.rs",
        "Event",
        "the audit.k8s.io/v1 Event an audit log line is",
    ),
    (
        "storage/redb.rs",
        "events",
        "the redb table of the revisions' keys",
    ),
];

/// The modules whose code is generic: nothing in them may be about one resource.
const GENERIC: &[&str] = &[
    "storage",
    "registry",
    "audit",
    "endpoints",
    "discovery",
    "openapi",
    "worker",
    "server",
];

/// The longest a source file may be (the generated OpenAPI documents excepted).
const MAX_LINES: usize = 800;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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
            if entry.file_name().is_some_and(|n| n == "generated") {
                continue;
            }
            rust_files(&entry, out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

/// The module path of a source file (`registry/core/pod.rs` → `registry::core::pod`).
fn module_of(file: &Path) -> String {
    let relative = file.strip_prefix(src()).unwrap_or(file).with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|c| c != "mod" && c != "lib")
        .collect();
    parts.join("::")
}

/// The non-test code of a file: up to a `#[cfg(test)]` at the start of a line, without
/// comment lines.
fn code(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        if line.trim_start().starts_with("//") {
            continue;
        }
        out.push((number + 1, line));
    }
    out
}

/// The paths of a use tree starting at `rest` (after `crate::`, `super::` or `self::`):
/// `a::b`, or each of `{a::b, c::{d, e}}`.
fn use_tree(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect::<String>()
            .trim_end_matches(':')
            .to_owned()
    };
    let head = ident(rest);
    let after = &rest[head.len()..];
    let after_sep = after.strip_prefix("::").unwrap_or(after);
    let Some(inner) = (if head.is_empty() || after.starts_with("::{") {
        after_sep
            .strip_prefix('{')
            .or_else(|| rest.strip_prefix('{'))
    } else {
        None
    }) else {
        return vec![head];
    };
    // Split the group at top-level commas.
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&inner[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for item in items {
        let item = item.trim();
        if item.is_empty() || item == "self" {
            if !head.is_empty() {
                out.push(head.clone());
            }
            continue;
        }
        for path in use_tree(item) {
            out.push(if head.is_empty() {
                path
            } else {
                format!("{head}::{path}")
            });
        }
    }
    out
}

/// The crate paths named in `text`, the code of module `module`, resolved from the crate
/// root: `(line, path)`.
fn crate_paths(module: &str, text: &str) -> Vec<(usize, String)> {
    let own: Vec<&str> = module.split("::").filter(|s| !s.is_empty()).collect();
    let mut found = Vec::new();
    let lines = code(text);
    // Join statements that span lines (grouped imports) so a group is seen whole.
    let mut joined = String::new();
    let mut starts = Vec::new();
    for (number, line) in &lines {
        starts.push((joined.len(), *number));
        joined.push_str(line.trim());
        joined.push(' ');
    }
    let line_at = |offset: usize| {
        starts
            .iter()
            .rev()
            .find(|(start, _)| *start <= offset)
            .map_or(0, |(_, n)| *n)
    };
    let bytes = joined.as_bytes();
    for anchor in ["crate::", "super::", "self::"] {
        let mut at = 0;
        while let Some(found_at) = joined[at..].find(anchor) {
            let start = at + found_at;
            at = start + anchor.len();
            let preceded = start > 0 && {
                let c = bytes[start - 1] as char;
                c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == ':'
            };
            if preceded {
                continue;
            }
            // `super::super::x`: climb once per `super::`.
            let mut base: Vec<&str> = match anchor {
                "crate::" => Vec::new(),
                _ => own.clone(),
            };
            let mut rest = &joined[at..];
            if anchor == "super::" {
                base.pop();
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
            }
            for path in use_tree(rest) {
                let full: Vec<&str> = base
                    .iter()
                    .copied()
                    .chain(path.split("::").filter(|s| !s.is_empty()))
                    .collect();
                found.push((line_at(start), full.join("::")));
            }
        }
    }
    found
}

/// The longest of `known` that is `path` or a module path `path` starts with.
fn longest<'a>(path: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .filter(|m| path == *m || path.starts_with(&format!("{m}::")))
        .max_by_key(|m| m.len())
}

fn layer_of(path: &str) -> Option<(usize, &'static str)> {
    let all = LAYERS.iter().flat_map(|l| l.iter().copied());
    let module = longest(path, all)?;
    let level = LAYERS.iter().position(|l| l.contains(&module))?;
    Some((level, module))
}

fn sources() -> Vec<(PathBuf, String, String)> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|f| {
            let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let module = module_of(&f);
            (f, module, text)
        })
        .collect()
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let mut violations = Vec::new();
    for (file, module, text) in sources() {
        if module.is_empty() {
            continue;
        }
        let Some((level, own)) = layer_of(&module) else {
            violations.push(format!("{module} is in no layer of module_layers.rs"));
            continue;
        };
        for (line, path) in crate_paths(&module, &text) {
            let Some((used_level, used)) = layer_of(&path) else {
                continue;
            };
            let resource_layer = LAYERS.len() - 2;
            let permitted = used == own
                || used_level < level
                || (used_level == level && level == resource_layer);
            if !permitted {
                violations.push(format!(
                    "{}:{line}: {own} (layer {level}) uses {path} (layer {used_level})",
                    file.strip_prefix(src()).unwrap_or(&file).display()
                ));
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
fn no_module_imports_one_that_imports_it_back() {
    let sources = sources();
    let modules: BTreeSet<String> = sources.iter().map(|(_, m, _)| m.clone()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, module, text) in &sources {
        for (_, path) in crate_paths(module, text) {
            let Some(target) = longest(&path, modules.iter().map(String::as_str)) else {
                continue;
            };
            // A module's own submodules are its own business (a parent declares and
            // re-exports them).
            if target == module || target.starts_with(&format!("{module}::")) {
                continue;
            }
            edges
                .entry(module.clone())
                .or_default()
                .insert(target.to_owned());
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(node.to_owned(), 1);
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|m| m == next).unwrap_or(0);
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    cycles.push(cycle.join(" -> "));
                }
                Some(_) => {}
                None => visit(next, edges, state, stack, cycles),
            }
        }
        stack.pop();
        state.insert(node.to_owned(), 2);
    }
    let mut state = BTreeMap::new();
    let mut cycles = Vec::new();
    for module in &modules {
        if !state.contains_key(module) {
            visit(module, &edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn generic_code_matches_no_resource_by_name() {
    let mut scheme = Scheme::with_name("module-layers");
    k8s_types::register(&mut scheme).unwrap();
    let mut names = BTreeSet::new();
    for info in resources_from_scheme(&scheme).into_values() {
        names.insert(info.resource);
        names.insert(info.kind);
    }
    let mut violations = Vec::new();
    for (file, module, text) in sources() {
        let generic = GENERIC
            .iter()
            .any(|g| module == *g || module.starts_with(&format!("{g}::")));
        let resource_module = layer_of(&module).is_some_and(|(level, _)| level == LAYERS.len() - 2);
        if !generic || resource_module {
            continue;
        }
        let relative = file
            .strip_prefix(src())
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        for (line, code) in code(&text) {
            for name in &names {
                let exempt = NAMED_IN_GENERIC_CODE
                    .iter()
                    .any(|(f, n, _)| *f == relative && (*n == "*" || n == name));
                if !exempt && code.contains(&format!("\"{name}\"")) {
                    violations.push(format!("{relative}:{line}: \"{name}\""));
                }
            }
        }
    }
    assert!(
        violations.is_empty(),
        "resources named in generic code (give them a strategy or REST storage in their resource module):\n{}",
        violations.join("\n")
    );
}

#[test]
fn source_files_stay_under_800_lines() {
    let mut long = Vec::new();
    for (file, _, text) in sources() {
        let lines = text.lines().count();
        if lines > MAX_LINES {
            long.push(format!("{}: {lines} lines", file.display()));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checker_sees_crate_paths() {
    let found = crate_paths(
        "registry::core::pod",
        "use crate::registry::{Store, rest::{Context, Creater}};\n// crate::server in a comment\nuse super::super::strategy::Strategy;\nlet x = $crate::a::b;\n#[cfg(test)]\nuse crate::server;",
    );
    let paths: Vec<&str> = found.iter().map(|(_, p)| p.as_str()).collect();
    assert_eq!(
        paths,
        [
            "registry::Store",
            "registry::rest::Context",
            "registry::rest::Creater",
            "registry::strategy::Strategy"
        ]
    );
    assert_eq!(
        layer_of("registry::core::pod::PodStrategy"),
        Some((5, "registry::core"))
    );
    assert_eq!(layer_of("registry::Store"), Some((2, "registry")));
}
