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
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

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

/// A release of a module with its go.sum checksums (`None` before they are known).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Module {
    path: String,
    version: String,
    sum: Option<String>,
    go_mod_sum: Option<String>,
}

/// Runs the task with its arguments (those after `lifecycle`).
pub fn main(args: &[String]) -> Result<(), Error> {
    let mut check = false;
    for arg in args {
        match arg.as_str() {
            "--check" => check = true,
            other => {
                return Err(Error::Usage(format!(
                    "unknown option `{other}` (cargo xtask lifecycle [--check])"
                )));
            }
        }
    }
    let root = crate::workspace_root();
    let sums_path = root.join(SUMS);
    let sums_text = std::fs::read_to_string(&sums_path).map_err(|source| Error::Read {
        path: sums_path.clone(),
        source,
    })?;
    let mut modules = parse_sums(&sums_text).map_err(Error::Model)?;
    let mut dirs = Vec::new();
    for module in &mut modules {
        dirs.push(download(module, check)?);
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
    let sums = write_sums(&modules);
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

/// The releases of a go.sum-style file, oldest first; comment and blank lines are
/// skipped.
fn parse_sums(text: &str) -> Result<Vec<Module>, String> {
    let mut modules: Vec<Module> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (path, version, sum) = match fields[..] {
            [path, version] => (path, version, None),
            [path, version, sum] => (path, version, Some(sum.to_owned())),
            _ => return Err(format!("{SUMS}:{}: not `module version [h1:...]`", n + 1)),
        };
        if !MODULES.contains(&path) {
            return Err(format!(
                "{SUMS}:{}: {path} is not one of {}",
                n + 1,
                MODULES.join(", ")
            ));
        }
        let (version, is_go_mod) = match version.strip_suffix("/go.mod") {
            Some(v) => (v, true),
            None => (version, false),
        };
        let i = match modules
            .iter()
            .position(|m| m.path == path && m.version == version)
        {
            Some(i) => i,
            None => {
                modules.push(Module {
                    path: path.to_owned(),
                    version: version.to_owned(),
                    sum: None,
                    go_mod_sum: None,
                });
                modules.len() - 1
            }
        };
        let slot = if is_go_mod {
            &mut modules[i].go_mod_sum
        } else {
            &mut modules[i].sum
        };
        *slot = sum;
    }
    modules.sort_by_key(|m| {
        let rank = MODULES.iter().position(|p| *p == m.path);
        (rank, version_key(&m.version))
    });
    Ok(modules)
}

/// `v0.25.9` as numbers, for ordering.
fn version_key(version: &str) -> Vec<u64> {
    version
        .trim_start_matches('v')
        .split(['.', '-'])
        .map(|p| p.parse().unwrap_or(0))
        .collect()
}

/// The file `parse_sums` reads, as go.sum writes it.
fn write_sums(modules: &[Module]) -> String {
    let mut out = String::from(
        "// The module releases `cargo xtask lifecycle` reads, with their go.sum checksums.\n",
    );
    for m in modules {
        for (suffix, sum) in [("", &m.sum), ("/go.mod", &m.go_mod_sum)] {
            out.push_str(&format!("{} {}{suffix}", m.path, m.version));
            if let Some(sum) = sum {
                out.push_str(&format!(" {sum}"));
            }
            out.push('\n');
        }
    }
    out
}

/// Fetches `module` with Go into its module cache and returns its directory. The
/// checksums Go reports must be those recorded; missing ones are filled in (not under
/// `--check`, where a missing one is an error).
fn download(module: &mut Module, check: bool) -> Result<PathBuf, Error> {
    let target = format!("{}@{}", module.path, module.version);
    let output = Command::new("go")
        .args(["mod", "download", "-json", &target])
        // Outside any module, so that no go.mod around the workspace is consulted.
        .current_dir(std::env::temp_dir())
        .env("GO111MODULE", "on")
        .output()
        .map_err(|e| {
            Error::Model(format!(
                "running `go mod download {target}`: {e} (is Go installed?)"
            ))
        })?;
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|e| {
        Error::Model(format!(
            "`go mod download -json {target}`: {e}: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    })?;
    let field = |name: &str| report.get(name).and_then(|v| v.as_str()).map(str::to_owned);
    if let Some(error) = field("Error") {
        return Err(Error::Model(format!("go mod download {target}: {error}")));
    }
    for (recorded, reported, what) in [
        (&mut module.sum, field("Sum"), ""),
        (&mut module.go_mod_sum, field("GoModSum"), "/go.mod"),
    ] {
        let reported = reported
            .ok_or_else(|| Error::Model(format!("go mod download {target}: no checksum{what}")))?;
        match recorded {
            Some(sum) if *sum != reported => {
                return Err(Error::Model(format!(
                    "{target}{what}: Go reports {reported}, {SUMS} records {sum}"
                )));
            }
            Some(_) => {}
            None if check => {
                return Err(Error::Stale(format!(
                    "{SUMS}: no checksum for {target}{what}"
                )));
            }
            None => *recorded = Some(reported),
        }
    }
    field("Dir")
        .map(PathBuf::from)
        .ok_or_else(|| Error::Model(format!("go mod download {target}: no directory")))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_read_back_as_written_oldest_first() -> Result<(), String> {
        let text = "// header\nk8s.io/api v0.9.1 h1:b=\nk8s.io/api v0.9.1/go.mod h1:bm=\nk8s.io/api v0.10.0\n";
        let modules = parse_sums(text)?;
        assert_eq!(
            modules
                .iter()
                .map(|m| m.version.as_str())
                .collect::<Vec<_>>(),
            ["v0.9.1", "v0.10.0"]
        );
        assert_eq!(modules[0].sum.as_deref(), Some("h1:b="));
        assert_eq!(modules[0].go_mod_sum.as_deref(), Some("h1:bm="));
        assert_eq!(modules[1].sum, None);
        let written = write_sums(&modules);
        assert!(
            written.contains(
                "k8s.io/api v0.9.1/go.mod h1:bm=\nk8s.io/api v0.10.0\nk8s.io/api v0.10.0/go.mod\n"
            ),
            "{written}"
        );
        assert!(parse_sums("example.com/x v1.0.0\n").is_err());
        Ok(())
    }
}
