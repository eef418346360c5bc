//! `cargo xtask lifecycle [--check]`: the API lifecycle table of `k8s-types`
//! (`k8s-types/src/lifecycle/table.rs`), read from the lifecycle data of `k8s.io/api`
//! (and of `k8s.io/apiextensions-apiserver` and `k8s.io/kube-aggregator`, where the
//! `apiextensions.k8s.io` and `apiregistration.k8s.io` types are).
//!
//! The releases read are those of `k8s-types/src/lifecycle/modules.sum`, one per line
//! in go.sum's form (`k8s.io/api v0.25.9 h1:...` and its `/go.mod` line). Each is
//! fetched with `go mod download -json` (Go verifies it against the checksum
//! database) and must have the recorded checksums; a line without a checksum takes
//! the one Go reports, which is how a release is added (`k8s.io/api v0.38.1` alone on a
//! line). Each kind's entry is taken from the newest release defining it (see
//! [`go_source`] for what is read there).
//!
//! `--check` regenerates in memory and fails when the committed table differs. Both
//! need Go and the module proxy; the table is committed, so nothing else does.

mod emit;
mod go_source;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::Error;
use crate::gomod;

/// The committed table, relative to the workspace root.
const TABLE: &str = "k8s-types/src/lifecycle/table.rs";

/// The releases read and their checksums, relative to the workspace root.
const SUMS: &str = "k8s-types/src/lifecycle/modules.sum";

/// The modules whose lifecycle data is read; the first gives the release numbering.
const MODULES: [&str; 3] = [
    "k8s.io/api",
    "k8s.io/apiextensions-apiserver",
    "k8s.io/kube-aggregator",
];

/// A release `major.minor`; `(0, 0)` is Go's "none".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Release {
    major: u16,
    minor: u16,
}

/// A group, version and kind as a replacement marker names it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kind {
    group: String,
    version: String,
    kind: String,
}

/// One kind's lifecycle methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    introduced: Option<Release>,
    deprecated: Option<Release>,
    removed: Option<Release>,
    replacement: Option<Kind>,
    /// The release of `k8s.io/api` the entry was read from.
    module_version: String,
}

/// Runs the task with its arguments (those after `lifecycle`).
pub fn main(args: &[String]) -> Result<(), Error> {
    let check = crate::check_flag(args, "cargo xtask lifecycle [--check]")?;
    let root = crate::workspace_root();
    let sums_path = root.join(SUMS);
    let sums_text = std::fs::read_to_string(&sums_path).map_err(|source| Error::Read {
        path: sums_path.clone(),
        source,
    })?;
    let mut modules = gomod::parse_sums(&sums_text, SUMS, &MODULES).map_err(Error::Model)?;
    let mut dirs = Vec::new();
    for module in &mut modules {
        dirs.push(gomod::download(module, check, SUMS)?);
    }
    let mut table: BTreeMap<(String, String, String), Entry> = BTreeMap::new();
    // Oldest first: a newer release's entry replaces an older one's (the modules define
    // different groups).
    for (module, dir) in modules.iter().zip(&dirs) {
        for (key, mut entry) in go_source::read_module(dir)? {
            entry.module_version = module.version.clone();
            table.insert(key, entry);
        }
    }
    let text = format(&emit::table(&modules, &table))?;
    let table_path = root.join(TABLE);
    let sums = gomod::write_sums(
        "The module releases `cargo xtask lifecycle` reads, with their go.sum checksums.",
        &modules,
    );
    if check {
        let committed = std::fs::read_to_string(&table_path).unwrap_or_default();
        if committed != text || sums != sums_text {
            return Err(Error::Stale(format!(
                "{} is not what `cargo xtask lifecycle` writes from {}",
                table_path.display(),
                sums_path.display()
            )));
        }
        eprintln!(
            "the lifecycle table is up to date ({} kinds from {} module releases)",
            table.len(),
            modules.len()
        );
        return Ok(());
    }
    write(&table_path, &text)?;
    write(&sums_path, &sums)?;
    eprintln!(
        "wrote {} ({} kinds from {} module releases)",
        table_path.display(),
        table.len(),
        modules.len()
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// `text` as rustfmt formats it (what `cargo fmt --check` then accepts).
fn format(text: &str) -> Result<String, Error> {
    use std::io::Write;
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let mut child = Command::new(rustfmt)
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Error::Rustfmt(e.to_string()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| Error::Rustfmt(e.to_string()))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| Error::Rustfmt(e.to_string()))?;
    if !output.status.success() {
        return Err(Error::Rustfmt(format!("exited with {}", output.status)));
    }
    String::from_utf8(output.stdout).map_err(|e| Error::Rustfmt(e.to_string()))
}
