//! Workspace tasks. `cargo xtask lifecycle [--check]` writes the API lifecycle table of
//! `k8s-types` from `k8s.io/api`'s own lifecycle methods (see [`lifecycle`]).
//! `cargo xtask refdata --release X.Y` writes a release's API reference data from
//! Kubernetes' Go modules (see [`refdata`]). `cargo xtask codegen --release X.Y`
//! generates `k8s-types/src/generated` and the OpenAPI documents of
//! `apiserver/src/openapi/generated` from that data (written first when it is missing,
//! which needs Go); `cargo xtask codegen --check` regenerates into a temporary directory
//! and fails when the committed files differ.
//!
//! Each supported release ([`refdata::SUPPORTED`]) has its own generated directories,
//! `k8s-types/src/generated/v1_36` and `apiserver/src/openapi/generated/v1_36`, which the
//! crates compile under the release's cargo feature (`v1_36`).
//!
//! Options: `--release X.Y` (default: [`refdata::DEFAULT_RELEASE`], the release the crates
//! build by default; `all`: every supported release, one after the other), `--input DIR`
//! (the data read from DIR instead, such as `../shared/k8s-api/v1.36`, with no Go needed;
//! one release only; default `$K8S_API_DIR` when that directory is named for the release,
//! `v1.36`), `--output DIR` (default `k8s-types/src/generated/vX_Y`) and
//! `--openapi-output DIR` (default `apiserver/src/openapi/generated/vX_Y`).
//!
//! `cargo xtask release-diff --from X.Y --to X.Z` lists what changed between two pinned
//! releases in the Go code we port by hand (see [`release_diff`]).
//!
//! `cargo xtask etcd-proto [--check]` generates apiserver's etcd gRPC client
//! (`apiserver/src/storage/etcd/generated.rs`, see [`etcd_proto`]).
//!
//! `cargo xtask bench-report [--check]` writes the table of current figures at the top of
//! `BENCHMARKS.md` from the rows the benchmark scripts append to `benchmarks/results`
//! (see [`bench_report`]).

mod bench_report;
mod default_markers;
mod docs;
mod emit;
mod etcd_proto;
mod features;
mod go_fields;
mod go_internal;
mod gomod;
mod hubs;
mod input;
mod internal_forms;
mod key_defaults;
mod lifecycle;
mod model;
mod naming;
mod openapi;
mod openapi_enums;
mod refdata;
mod release_diff;
mod shapes;
mod sharing;
mod type_list;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What can go wrong while generating.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file is not the JSON expected.
    #[error("parsing {path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// A file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The data has something the generator cannot map.
    #[error("{0}")]
    Model(String),
    /// rustfmt failed.
    #[error("rustfmt: {0}")]
    Rustfmt(String),
    /// Bad command line.
    #[error(
        "{0}\nusage: cargo xtask codegen [--check] [--release X.Y|all] [--input DIR] [--output DIR] [--openapi-output DIR]\n       cargo xtask refdata --release X.Y [--out DIR] [--compare DIR]\n       cargo xtask release-diff --from X.Y --to X.Z [--out FILE]\n       cargo xtask lifecycle [--check]\n       cargo xtask etcd-proto [--check]\n       cargo xtask bench-report [--check]"
    )]
    Usage(String),
    /// `--check` found differences.
    #[error("generated code is out of date; run `cargo xtask codegen`:\n{0}")]
    Stale(String),
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// One release's generation.
struct Options {
    check: bool,
    release: refdata::Release,
    /// The reference data's directory; `None`: the release's, written when missing.
    input: Option<PathBuf>,
    output: PathBuf,
    openapi_output: PathBuf,
}

/// The command line: `releases` (one, or every supported one for `--release all`) and the
/// options given; the directories not given are each release's own.
struct Args {
    check: bool,
    releases: Vec<refdata::Release>,
    input: Option<PathBuf>,
    output: Option<PathBuf>,
    openapi_output: Option<PathBuf>,
}

impl Args {
    /// The options of each release asked for.
    fn per_release(self) -> Result<Vec<Options>, Error> {
        let root = workspace_root();
        let single = self.releases.len() == 1;
        if !single
            && (self.input.is_some() || self.output.is_some() || self.openapi_output.is_some())
        {
            return Err(Error::Usage(
                "--input, --output and --openapi-output name one release's directories: give one --release with them".into(),
            ));
        }
        // `$K8S_API_DIR` is one release's data (`../shared/k8s-api/v1.36`): taken for the
        // release its directory is named for only, so that a 1.37 run never reads 1.36's.
        let env_input = std::env::var_os("K8S_API_DIR").map(PathBuf::from);
        Ok(self
            .releases
            .iter()
            .map(|&release| {
                let from_env = env_input.clone().filter(|dir| {
                    dir.file_name()
                        .is_some_and(|name| name.to_string_lossy() == release.dir_name())
                });
                Options {
                    check: self.check,
                    release,
                    input: self.input.clone().or(from_env),
                    output: self.output.clone().unwrap_or_else(|| {
                        root.join("k8s-types/src/generated").join(release.feature())
                    }),
                    openapi_output: self.openapi_output.clone().unwrap_or_else(|| {
                        root.join("apiserver/src/openapi/generated")
                            .join(release.feature())
                    }),
                }
            })
            .collect())
    }
}

fn parse_args(args: &[String]) -> Result<Args, Error> {
    let mut opts = Args {
        check: false,
        releases: vec![refdata::DEFAULT_RELEASE],
        input: None,
        output: None,
        openapi_output: None,
    };
    let mut it = args.iter();
    match it.next().map(String::as_str) {
        Some("codegen") => {}
        Some(other) => return Err(Error::Usage(format!("unknown task `{other}`"))),
        None => return Err(Error::Usage("no task given".into())),
    }
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--check" => opts.check = true,
            "--release" | "--input" | "--output" | "--openapi-output" => {
                let value = it
                    .next()
                    .ok_or_else(|| Error::Usage(format!("{arg} needs a value")))?;
                match arg.as_str() {
                    "--release" if value == "all" => opts.releases = refdata::SUPPORTED.to_vec(),
                    "--release" => {
                        let release = refdata::Release::parse(value)?;
                        if !refdata::SUPPORTED.contains(&release) {
                            return Err(Error::Usage(format!(
                                "{release} is not among the supported releases ({}): add it to xtask's refdata::SUPPORTED first",
                                supported_list()
                            )));
                        }
                        opts.releases = vec![release];
                    }
                    "--input" => opts.input = Some(PathBuf::from(value)),
                    "--output" => opts.output = Some(PathBuf::from(value)),
                    _ => opts.openapi_output = Some(PathBuf::from(value)),
                }
            }
            other => return Err(Error::Usage(format!("unknown option `{other}`"))),
        }
    }
    Ok(opts)
}

/// `1.36, 1.37`.
fn supported_list() -> String {
    refdata::SUPPORTED
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_all(dir: &Path, files: &std::collections::BTreeMap<String, String>) -> Result<(), Error> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let mut paths = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| Error::Write {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, text).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
        if rel.ends_with(".rs") {
            paths.push(path);
        }
    }
    let rustfmt = std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into());
    let status = std::process::Command::new(rustfmt)
        .args(["--edition", "2024"])
        .args(&paths)
        .status()
        .map_err(|e| Error::Rustfmt(e.to_string()))?;
    if !status.success() {
        return Err(Error::Rustfmt(format!("exited with {status}")));
    }
    Ok(())
}

/// Files of `dir`, relative, with their bytes.
fn read_tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(dir), std::fs::read(&path)) {
                out.insert(rel.to_path_buf(), bytes);
            }
        }
    }
    out
}

/// How the files written to `fresh` differ from those committed in `committed`.
fn tree_diffs(fresh: &Path, committed_dir: &Path) -> Vec<String> {
    let (fresh, committed) = (read_tree(fresh), read_tree(committed_dir));
    let mut diffs = Vec::new();
    for (path, bytes) in &fresh {
        let shown = committed_dir.join(path);
        match committed.get(path) {
            None => diffs.push(format!("missing: {}", shown.display())),
            Some(old) if old != bytes => diffs.push(format!("differs: {}", shown.display())),
            Some(_) => {}
        }
    }
    for path in committed.keys().filter(|p| !fresh.contains_key(*p)) {
        diffs.push(format!(
            "not generated any more: {}",
            committed_dir.join(path).display()
        ));
    }
    diffs
}

fn run(opts: &Options) -> Result<(), Error> {
    let input_dir = refdata::ensure(&workspace_root(), opts.release, opts.input.as_deref())?;
    // The release's own data, written from its Go modules: the same directory unless the
    // input was prepared by hand (`../shared/k8s-api/v1.36`), whose gaps it fills.
    let release_dir = match opts.input {
        Some(_) => refdata::ensure(&workspace_root(), opts.release, None)?,
        None => input_dir.clone(),
    };
    let mut input = input::Input::read(&input_dir)?;
    input.read_internal(&input_dir, || Ok(release_dir.clone()))?;
    // Hand-prepared data lacks some short names and categories kube-apiserver serves;
    // the release's own discovery documents add them.
    if release_dir != input_dir {
        input.add_extras(&release_dir)?;
    }
    let mut model = model::build(&input)?;
    model.release = opts.release.to_string();
    let shared = sharing::share(&mut model);
    let mut conversions = hubs::plan(&model);
    conversions.report.push_str(&sharing::report(&shared));
    let mut files = emit::emit(&model, &conversions);
    files.insert("shapes.json".to_owned(), shapes::shapes(&model));
    files.insert(
        default_markers::FILE.to_owned(),
        default_markers::default_markers(&input, &model)?,
    );
    files.insert(
        type_list::FILE.to_owned(),
        type_list::go_types(&input, &model)?,
    );
    files.insert(
        go_fields::FILE.to_owned(),
        go_fields::go_fields(&input, &model)?,
    );
    files.insert(
        go_internal::FILE.to_owned(),
        go_internal::go_internal(&input.internal, &input.go, &model.release)?,
    );
    let mut deps = features::group_dependencies(&model, &conversions);
    files.insert(features::DEPS_FILE.to_owned(), features::deps_json(&deps));
    // The features live in the crate's manifest, above `src/generated/vX_Y`, and cover
    // the releases generated beside this one.
    let generated = opts.output.parent().unwrap_or(Path::new("."));
    features::merge_releases(&mut deps, generated, opts.release)?;
    let table = features::cargo_features(&deps, refdata::SUPPORTED, refdata::DEFAULT_RELEASE);
    let manifest_path = generated.parent().and_then(Path::parent).map_or_else(
        || PathBuf::from("Cargo.toml"),
        |krate| krate.join("Cargo.toml"),
    );
    let manifest = std::fs::read_to_string(&manifest_path).map_err(|source| Error::Read {
        path: manifest_path.clone(),
        source,
    })?;
    let fresh_manifest = features::with_features(&manifest, &table);
    // Go's v3 documents (served, and for the key-field defaults) and the enums of Go's
    // definitions: the release's own data when the given directory has none (as for the
    // internal structs).
    let v3_dir = match input_dir.join(key_defaults::DIR) {
        dir if dir.is_dir() => dir,
        _ => release_dir.join(key_defaults::DIR),
    };
    let enums_dir = match input_dir.join(openapi_enums::FILE).is_file() {
        true => input_dir.clone(),
        false => release_dir.clone(),
    };
    let key_defaults = key_defaults::read(&v3_dir)?;
    let enums = openapi_enums::read(&enums_dir)?;
    let openapi_files =
        openapi::generate(&input_dir, &v3_dir, &enums, &model.release, &key_defaults)?;
    if !opts.check {
        write_all(&opts.output, &files)?;
        write_all(&opts.openapi_output, &openapi_files)?;
        if fresh_manifest != manifest {
            std::fs::write(&manifest_path, &fresh_manifest).map_err(|source| Error::Write {
                path: manifest_path.clone(),
                source,
            })?;
        }
        let (types, kinds) = model.modules.values().fold((0, 0), |(t, k), m| {
            (
                t + m.structs.len() + m.aliases.len(),
                k + m.structs.values().filter(|s| s.kind.is_some()).count(),
            )
        });
        eprintln!(
            "generated {} group versions, {types} types, {kinds} kinds into {}",
            model.modules.len(),
            opts.output.display()
        );
        eprintln!(
            "generated {} OpenAPI files into {}",
            openapi_files.len(),
            opts.openapi_output.display()
        );
        return Ok(());
    }
    let tmp = std::env::temp_dir().join(format!("k8s-types-codegen-{}", std::process::id()));
    let tmp_openapi = std::env::temp_dir().join(format!("openapi-codegen-{}", std::process::id()));
    let result = write_all(&tmp, &files)
        .and_then(|()| write_all(&tmp_openapi, &openapi_files))
        .map(|()| {
            let mut diffs = tree_diffs(&tmp, &opts.output);
            diffs.extend(tree_diffs(&tmp_openapi, &opts.openapi_output));
            if fresh_manifest != manifest {
                diffs.push(format!(
                    "differs: [features] of {}",
                    manifest_path.display()
                ));
            }
            diffs
        });
    let _ = std::fs::remove_dir_all(&tmp);
    let _ = std::fs::remove_dir_all(&tmp_openapi);
    let diffs = result?;
    if diffs.is_empty() {
        eprintln!(
            "generated code of Kubernetes {} is up to date ({} files)",
            opts.release,
            files.len() + openapi_files.len()
        );
        Ok(())
    } else {
        Err(Error::Stale(format!(
            "Kubernetes {} (`--release {}`):\n{}",
            opts.release,
            opts.release,
            diffs.join("\n")
        )))
    }
}

/// `cargo xtask etcd-proto [--check]`.
fn etcd_proto(args: &[String]) -> Result<(), Error> {
    let check = check_flag(args, "cargo xtask etcd-proto [--check]")?;
    etcd_proto::run(&workspace_root(), check)
}

/// The arguments of a task whose one option is `--check`: whether it was given; anything
/// else is a usage error quoting `usage`.
fn check_flag(args: &[String], usage: &str) -> Result<bool, Error> {
    let mut check = false;
    for arg in args {
        match arg.as_str() {
            "--check" => check = true,
            other => {
                return Err(Error::Usage(format!("unknown option `{other}` ({usage})")));
            }
        }
    }
    Ok(check)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("lifecycle") => lifecycle::main(&args[1..]),
        Some("etcd-proto") => etcd_proto(&args[1..]),
        Some("refdata") => refdata::main(&args[1..]),
        Some("release-diff") => release_diff::main(&args[1..]),
        Some("bench-report") => bench_report::main(&args[1..]),
        _ => parse_args(&args)
            .and_then(Args::per_release)
            .and_then(|all| all.iter().try_for_each(run)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
