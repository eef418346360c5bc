//! Go's JSON decoder's words for a value of the wrong JSON type in a built-in kind's body
//! (`json: cannot unmarshal array into Go struct field ConfigMap.data of type
//! map[string]string`), which kube-apiserver's decode errors quote. Writing them needs
//! the Go types of the built-in structs' fields, which the crate of the built-in types
//! (k8s-types, `go_json_errors::type_mismatch`) has and this library does not depend
//! on: the program that links both installs it, as it links the types into the scheme.
//! Without it the decode errors keep the decoder's own words.

use std::sync::OnceLock;

use serde_json::Value;

/// What names a type mismatch: the body's API group, version and kind, our decoder's
/// path of the value that failed (`spec.containers[0].name`) and the body; `None` when
/// the value there fits its Go type.
pub type TypeMismatch = fn(&str, &str, &str, &str, &Value) -> Option<String>;

static INSTALLED: OnceLock<TypeMismatch> = OnceLock::new();

/// Installs `describe` for every server of the process (the first one installed stays:
/// there is one set of built-in types per binary).
pub fn install(describe: TypeMismatch) {
    let _ = INSTALLED.set(describe);
}

/// Go's words for the value at `path` of `document`, a `group`/`version` `kind`, when a
/// describer is installed and the value does not fit its Go type.
pub(crate) fn describe(
    group: &str,
    version: &str,
    kind: &str,
    path: &str,
    document: &Value,
) -> Option<String> {
    INSTALLED.get()?(group, version, kind, path, document)
}
