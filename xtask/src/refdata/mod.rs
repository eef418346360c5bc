//! `cargo xtask refdata --release X.Y`: the Kubernetes API reference data of a release,
//! written from Kubernetes' own Go modules at that release rather than prepared by hand.
//!
//! What is read is pinned in the repository: `xtask/releases/vX.Y.sum` names, in go.sum's
//! form, the releases of `k8s.io/kubernetes`, `k8s.io/api`, `k8s.io/apimachinery`,
//! `k8s.io/apiextensions-apiserver` and `k8s.io/kube-aggregator` with their checksums.
//! Each is fetched through the module proxy with `go mod download` (Go checks it against
//! the checksum database, and this task against the pin; see [`crate::gomod`]). From them:
//!
//! | file | from |
//! | --- | --- |
//! | `swagger.json` | `k8s.io/kubernetes` `api/openapi-spec/swagger.json`, as it is |
//! | `openapi-v3/*.json` | `k8s.io/kubernetes` `api/openapi-spec/v3/`, as they are |
//! | `openapi-enums.json` | the enum fields of `k8s.io/kubernetes` `pkg/generated/openapi/zz_generated.openapi.go`, which the documents above lack ([`crate::openapi_enums`]) |
//! | `discovery-extras.json` | short names and categories of every resource in `k8s.io/kubernetes` `api/discovery/` ([`discovery`]) |
//! | `go-fields.json`, `proto-fields.json` | the Go types and `generated.proto` files of the four API modules, read by the oracle module's `k8s-refdata` program with Go's own parser (`oracle/internal/refdata`) |
//! | `go-internal-fields.json` | the same program's reading of the internal types of `k8s.io/kubernetes` (`pkg/apis/core`, `storage`, `batch`, `apps`): every exported field, since they have no JSON tags |
//! | `testdata/` | `k8s.io/api` `testdata/HEAD`: Go's fixtures of the release |
//! | `testdata-vX.Y.Z/` | `k8s.io/api` `testdata/vX.Y.Z`: the previous releases' fixtures with their `after_roundtrip` files |
//! | `modules.sum` | the pin the directory was written from |
//!
//! The data is Apache-2.0 upstream material and is never committed: it is written to
//! `target/k8s-api/vX.Y` (or `--out DIR`), a cache that `cargo xtask codegen` fills on
//! demand (and rewrites when the pin changes). Only the generated Rust is committed, so
//! building and testing need neither Go nor this data.
//!
//! `--compare DIR` then lists how the written data differs from another copy (JSON
//! compared as values, fixtures byte for byte): how the data of `../shared/k8s-api/v1.36`,
//! prepared by hand, was checked against the source.

mod compare;
mod discovery;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Error;
use crate::gomod::{self, Module, read_dir_sorted};

/// The modules a release's data is read from, in the order pin files list them.
pub const MODULES: [&str; 5] = [
    "k8s.io/kubernetes",
    "k8s.io/api",
    "k8s.io/apimachinery",
    "k8s.io/apiextensions-apiserver",
    "k8s.io/kube-aggregator",
];

/// The release `cargo xtask codegen` generates when given none: the one the committed
/// code is generated for. It moves to the newest pinned release once that release's
/// hand-written pieces are done and its conformance passes.
pub const DEFAULT_RELEASE: Release = Release {
    major: 1,
    minor: 37,
};

/// Every release the repository carries generated code for, oldest first: each has its
/// directory under `k8s-types/src/generated` and `apiserver/src/openapi/generated`, and
/// its cargo feature (`v1_36`) in the crates that expose the API.
pub const SUPPORTED: &[Release] = &[
    Release {
        major: 1,
        minor: 36,
    },
    Release {
        major: 1,
        minor: 37,
    },
];

/// The directory of the pin files, relative to the workspace root.
pub const RELEASES: &str = "xtask/releases";

/// A Kubernetes release `1.Y`, as the pin files and cargo features name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Release {
    /// The major version (1).
    pub major: u16,
    /// The minor version.
    pub minor: u16,
}

impl Release {
    /// Reads `1.37` (or `v1.37`).
    pub fn parse(text: &str) -> Result<Release, Error> {
        let bad = || Error::Usage(format!("`{text}` is not a release such as 1.37"));
        let (major, minor) = text
            .trim_start_matches('v')
            .split_once('.')
            .ok_or_else(bad)?;
        Ok(Release {
            major: major.parse().map_err(|_| bad())?,
            minor: minor.parse().map_err(|_| bad())?,
        })
    }

    /// `v1.37`, the name of its pin file and data directory.
    pub fn dir_name(self) -> String {
        format!("v{}.{}", self.major, self.minor)
    }

    /// Its pin file.
    pub fn pin_file(self, root: &Path) -> PathBuf {
        root.join(RELEASES).join(format!("{}.sum", self.dir_name()))
    }

    /// `v1_37`, the name of its cargo feature and of its generated code's directories.
    pub fn feature(self) -> String {
        format!("v{}_{}", self.major, self.minor)
    }

    /// The default directory of its reference data.
    pub fn data_dir(self, root: &Path) -> PathBuf {
        root.join("target/k8s-api").join(self.dir_name())
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Runs the task with its arguments (those after `refdata`).
pub fn main(args: &[String]) -> Result<(), Error> {
    let root = crate::workspace_root();
    let mut release = None;
    let mut out = None;
    let mut compare_with = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| Error::Usage(format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--release" => release = Some(Release::parse(&value()?)?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--compare" => compare_with = Some(PathBuf::from(value()?)),
            other => return Err(Error::Usage(format!("unknown option `{other}`"))),
        }
    }
    let release =
        release.ok_or_else(|| Error::Usage("cargo xtask refdata needs --release".into()))?;
    let out = out.unwrap_or_else(|| release.data_dir(&root));
    let started = std::time::Instant::now();
    write(&root, release, &out, true)?;
    eprintln!(
        "wrote the Kubernetes {release} reference data into {} in {:.1} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    if let Some(other) = compare_with {
        let differences = compare::dirs(&out, &other)?;
        if differences.is_empty() {
            eprintln!("{} holds the same data", other.display());
        } else {
            println!("{}", differences.join("\n"));
            eprintln!(
                "{} differences from {} (listed above)",
                differences.len(),
                other.display()
            );
        }
    }
    Ok(())
}

/// The directory of the reference data of `release`: `given` as it is, else the
/// release's default directory, written first when it is missing or was written from
/// another pin (which needs Go and the module proxy).
pub fn ensure(root: &Path, release: Release, given: Option<&Path>) -> Result<PathBuf, Error> {
    if let Some(dir) = given {
        return Ok(dir.to_path_buf());
    }
    let dir = release.data_dir(root);
    let pin = read(&release.pin_file(root))?;
    // Data written before a file was added to it is written again.
    if std::fs::read_to_string(dir.join("modules.sum")).is_ok_and(|written| written == pin)
        && dir.join(crate::input::INTERNAL_FIELDS).exists()
        && dir.join(crate::openapi_enums::FILE).exists()
    {
        return Ok(dir);
    }
    eprintln!(
        "{} is missing or out of date: writing the Kubernetes {release} reference data from its Go modules",
        dir.display()
    );
    write(root, release, &dir, false)?;
    Ok(dir)
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The comment line a pin file starts with.
const PIN_HEADER: &str = "The modules `cargo xtask refdata` reads the release's API reference data from, with their go.sum checksums.";

/// Fetches the pinned modules of `release` and writes its data into `out`, replacing
/// what was there only once everything is written. With `fill`, checksums missing from
/// the pin are taken from Go (which checks them against the checksum database) and
/// recorded: how a release is added. Without it, a missing checksum is an error.
fn write(root: &Path, release: Release, out: &Path, fill: bool) -> Result<(), Error> {
    let pin_path = release.pin_file(root);
    let pin = read(&pin_path)?;
    let shown = pin_path
        .strip_prefix(root)
        .unwrap_or(&pin_path)
        .display()
        .to_string();
    let mut modules = gomod::parse_sums(&pin, &shown, &MODULES).map_err(Error::Model)?;
    let mut dirs = Vec::new();
    for module in &mut modules {
        dirs.push(gomod::download(module, !fill, &shown)?);
    }
    let pin = if fill {
        let filled = gomod::write_sums(PIN_HEADER, &modules);
        if filled != pin {
            write_file(&pin_path, &filled)?;
            eprintln!("{shown}: recorded the checksums Go reported");
        }
        filled
    } else {
        pin
    };
    let module_dir = |path: &str| -> Result<&Path, Error> {
        let mut found = modules.iter().zip(&dirs).filter(|(m, _)| m.path == path);
        match (found.next(), found.next()) {
            (Some((_, dir)), None) => Ok(dir.as_path()),
            _ => Err(Error::Model(format!(
                "{shown}: needs exactly one release of {path}"
            ))),
        }
    };
    let kubernetes = module_dir("k8s.io/kubernetes")?;
    let api = module_dir("k8s.io/api")?;

    let tmp = out.with_file_name(format!("{}.tmp-{}", file_name(out), std::process::id()));
    if tmp.exists() {
        remove_dir(&tmp)?;
    }
    create_dir(&tmp)?;
    let result = (|| {
        let spec = kubernetes.join("api/openapi-spec");
        copy_file(&spec.join("swagger.json"), &tmp.join("swagger.json"))?;
        copy_dir(&spec.join("v3"), &tmp.join("openapi-v3"))?;
        let definitions = kubernetes.join(crate::openapi_enums::GO_FILE);
        let enums = crate::openapi_enums::parse(&read(&definitions)?)?;
        write_file(
            &tmp.join(crate::openapi_enums::FILE),
            &crate::openapi_enums::to_json(&enums),
        )?;
        let extras = discovery::extras(&kubernetes.join("api/discovery"), release)?;
        write_file(&tmp.join("discovery-extras.json"), &extras)?;
        go_facts(root, &modules, &dirs, &tmp)?;
        let testdata = api.join("testdata");
        copy_dir(&testdata.join("HEAD"), &tmp.join("testdata"))?;
        for entry in read_dir_sorted(&testdata)? {
            let name = file_name(&entry);
            if entry.is_dir() && name.starts_with('v') {
                copy_dir(&entry, &tmp.join(format!("testdata-{name}")))?;
            }
        }
        write_file(&tmp.join("modules.sum"), &pin)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if out.exists() {
        remove_dir(out)?;
    }
    std::fs::rename(&tmp, out).map_err(|source| Error::Write {
        path: out.to_path_buf(),
        source,
    })
}

/// Runs the oracle module's `k8s-refdata` on the API modules: go-fields.json,
/// go-internal-fields.json and proto-fields.json into `out`.
fn go_facts(root: &Path, modules: &[Module], dirs: &[PathBuf], out: &Path) -> Result<(), Error> {
    let mut args = vec![
        "run".to_owned(),
        "-trimpath".to_owned(),
        "./cmd/k8s-refdata".to_owned(),
        out.display().to_string(),
    ];
    // k8s.io/kubernetes too: its internal types (go-internal-fields.json).
    for (m, dir) in modules.iter().zip(dirs) {
        args.push(format!("{}@{}={}", m.path, m.version, dir.display()));
    }
    let status = Command::new("go")
        .args(&args)
        .current_dir(root.join("oracle"))
        .status()
        .map_err(|e| Error::Model(format!("running `go run ./cmd/k8s-refdata`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::Model(format!(
            "`go run ./cmd/k8s-refdata` (in oracle/) exited with {status}"
        )))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })
}

fn remove_dir(dir: &Path) -> Result<(), Error> {
    std::fs::remove_dir_all(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    std::fs::write(path, text).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Copies a file's bytes (not its mode: the module cache's files are read-only).
fn copy_file(from: &Path, to: &Path) -> Result<(), Error> {
    let bytes = std::fs::read(from).map_err(|source| Error::Read {
        path: from.to_path_buf(),
        source,
    })?;
    std::fs::write(to, bytes).map_err(|source| Error::Write {
        path: to.to_path_buf(),
        source,
    })
}

/// Copies the files of `from` (not its subdirectories, which fixtures do not have).
fn copy_dir(from: &Path, to: &Path) -> Result<(), Error> {
    create_dir(to)?;
    for entry in read_dir_sorted(from)? {
        if entry.is_file() {
            copy_file(&entry, &to.join(file_name(&entry)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_name_their_files() -> Result<(), Error> {
        let r = Release::parse("1.37")?;
        assert_eq!(r.dir_name(), "v1.37");
        assert_eq!(Release::parse("v1.36")?.to_string(), "1.36");
        assert!(Release::parse("1").is_err());
        assert!(Release::parse("1.x").is_err());
        assert!(Release::parse("1.36")? < r);
        Ok(())
    }
}
