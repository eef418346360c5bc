//! Go modules pinned in the repository: files of go.sum lines (`k8s.io/api v0.37.2
//! h1:...` and its `/go.mod` line) naming the module releases a task reads, fetched with
//! `go mod download -json` (Go verifies them against the checksum database) and held
//! to the recorded checksums. A line without a checksum takes the one Go reports, which
//! is how a release is added; under `--check` it is an error.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;

/// A release of a module with its go.sum checksums (`None` before they are known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    /// The module path (`k8s.io/api`).
    pub path: String,
    /// The version (`v0.37.2`).
    pub version: String,
    /// The checksum of the module's files (`h1:...`).
    pub sum: Option<String>,
    /// The checksum of its go.mod.
    pub go_mod_sum: Option<String>,
}

/// The modules of a pin file's `text` (named `file` in errors), sorted by their rank in
/// `allowed` and then by version, oldest first; comment and blank lines are skipped, and
/// a module not in `allowed` is an error.
pub fn parse_sums(text: &str, file: &str, allowed: &[&str]) -> Result<Vec<Module>, String> {
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
            _ => return Err(format!("{file}:{}: not `module version [h1:...]`", n + 1)),
        };
        if !allowed.contains(&path) {
            return Err(format!(
                "{file}:{}: {path} is not one of {}",
                n + 1,
                allowed.join(", ")
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
        let rank = allowed.iter().position(|p| *p == m.path);
        (rank, version_key(&m.version))
    });
    Ok(modules)
}

/// `v0.25.9` as numbers, for ordering.
pub fn version_key(version: &str) -> Vec<u64> {
    version
        .trim_start_matches('v')
        .split(['.', '-'])
        .map(|p| p.parse().unwrap_or(0))
        .collect()
}

/// The pin file `parse_sums` reads, as go.sum writes it, under the comment `header`.
pub fn write_sums(header: &str, modules: &[Module]) -> String {
    let mut out = format!("// {header}\n");
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
/// checksums Go reports must be those recorded (in the pin file `file`); missing ones are
/// filled in (not under `check`, where a missing one is an error).
pub fn download(module: &mut Module, check: bool, file: &str) -> Result<PathBuf, Error> {
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
                    "{target}{what}: Go reports {reported}, {file} records {sum}"
                )));
            }
            Some(_) => {}
            None if check => {
                return Err(Error::Stale(format!(
                    "{file}: no checksum for {target}{what}"
                )));
            }
            None => *recorded = Some(reported),
        }
    }
    field("Dir")
        .map(PathBuf::from)
        .ok_or_else(|| Error::Model(format!("go mod download {target}: no directory")))
}

/// The entries of a directory of a fetched module, sorted, so that what is read from it
/// comes in the same order on every machine.
pub fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_read_back_as_written_oldest_first() -> Result<(), String> {
        let text = "// header\nk8s.io/api v0.9.1 h1:b=\nk8s.io/api v0.9.1/go.mod h1:bm=\nk8s.io/api v0.10.0\n";
        let modules = parse_sums(text, "f.sum", &["k8s.io/api"])?;
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
        let written = write_sums("header", &modules);
        assert!(written.starts_with("// header\n"), "{written}");
        assert!(
            written.contains(
                "k8s.io/api v0.9.1/go.mod h1:bm=\nk8s.io/api v0.10.0\nk8s.io/api v0.10.0/go.mod\n"
            ),
            "{written}"
        );
        assert!(parse_sums("example.com/x v1.0.0\n", "f.sum", &["k8s.io/api"]).is_err());
        Ok(())
    }

    #[test]
    fn modules_sort_by_their_rank_then_version() -> Result<(), String> {
        let text = "k8s.io/b v1.0.0\nk8s.io/a v0.10.0\nk8s.io/a v0.9.0\n";
        let modules = parse_sums(text, "f.sum", &["k8s.io/a", "k8s.io/b"])?;
        let order: Vec<_> = modules
            .iter()
            .map(|m| format!("{}@{}", m.path, m.version))
            .collect();
        assert_eq!(
            order,
            ["k8s.io/a@v0.9.0", "k8s.io/a@v0.10.0", "k8s.io/b@v1.0.0"]
        );
        Ok(())
    }
}
