//! `cargo xtask release-diff --from X.Y --to X.Z [--out FILE]`: what changed in the Go
//! code we port by hand, between two pinned releases — the maintainer's list for a new
//! release, after `cargo xtask codegen --release X.Z` has regenerated what is generated.
//!
//! The generator reads types, field shapes, protobuf numbers, `+default` markers and
//! fixtures, so a new release's types come for free; what it cannot read is Go's
//! hand-written behaviour: conversions (`pkg/apis/<group>/<version>/conversion.go`),
//! defaulting functions (`defaults.go`), validation (`pkg/apis/<group>/validation`), the
//! registry's strategies (`pkg/registry/.../strategy.go`), the helpers those call
//! (`pkg/api/...`: dropped disabled fields, warnings), the printers behind tables and
//! the served versions (`pkg/controlplane/instance.go`), in `k8s.io/kubernetes`,
//! `k8s.io/apiextensions-apiserver` and `k8s.io/kube-aggregator`. For each of those
//! files the release changed, added or removed, the task lists the top-level
//! declarations that differ and names our counterpart files to check (those that exist;
//! none named means the behaviour has no port yet).
//!
//! Both releases' modules are fetched with Go from their pin files
//! (`xtask/releases/vX.Y.sum`), held to the recorded checksums, as `refdata` does.

mod go_decls;
mod watched;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::Error;
use crate::gomod;
use crate::refdata::{MODULES, Release};
use go_decls::Change;
use watched::{Ours, Watched};

/// The modules whose hand-written code is ported (the others a pin names hold types and
/// fixtures, which the generator reads).
const PORTED_MODULES: [&str; 3] = [
    "k8s.io/kubernetes",
    "k8s.io/apiextensions-apiserver",
    "k8s.io/kube-aggregator",
];

/// Runs the task with its arguments (those after `release-diff`).
pub fn main(args: &[String]) -> Result<(), Error> {
    let (mut from, mut to, mut out) = (None, None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| Error::Usage(format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--from" => from = Some(Release::parse(value()?)?),
            "--to" => to = Some(Release::parse(value()?)?),
            "--out" => out = Some(PathBuf::from(value()?)),
            other => return Err(Error::Usage(format!("unknown option `{other}`"))),
        }
    }
    let (Some(from), Some(to)) = (from, to) else {
        return Err(Error::Usage(
            "release-diff needs --from X.Y and --to X.Z".into(),
        ));
    };
    let root = crate::workspace_root();
    let old = fetch(&root, from)?;
    let new = fetch(&root, to)?;
    let mut files = Vec::new();
    for module in PORTED_MODULES {
        let (Some(old_module), Some(new_module)) = (old.get(module), new.get(module)) else {
            return Err(Error::Model(format!(
                "both pin files must name {module} (xtask/releases/{}.sum, {}.sum)",
                from.dir_name(),
                to.dir_name()
            )));
        };
        files.extend(compare_module(module, old_module, new_module)?);
    }
    let report = render(&Ours::read(&root)?, from, to, &old, &new, &files);
    match out {
        Some(path) => std::fs::write(&path, report).map_err(|source| Error::Write { path, source }),
        None => {
            print!("{report}");
            Ok(())
        }
    }
}

/// A pinned module's version and fetched directory.
struct Fetched {
    version: String,
    dir: PathBuf,
}

/// The ported modules of `release`, fetched and checked against its pin file.
fn fetch(root: &Path, release: Release) -> Result<BTreeMap<String, Fetched>, Error> {
    let pin_path = release.pin_file(root);
    let pin = std::fs::read_to_string(&pin_path).map_err(|source| Error::Read {
        path: pin_path.clone(),
        source,
    })?;
    let shown = format!("{}/{}.sum", crate::refdata::RELEASES, release.dir_name());
    let mut out = BTreeMap::new();
    for mut module in gomod::parse_sums(&pin, &shown, &MODULES).map_err(Error::Model)? {
        if !PORTED_MODULES.contains(&module.path.as_str()) {
            continue;
        }
        let dir = gomod::download(&mut module, true, &shown)?;
        out.insert(
            module.path.clone(),
            Fetched {
                version: module.version,
                dir,
            },
        );
    }
    Ok(out)
}

/// One watched Go file that differs between the releases.
struct FileChange {
    /// The module it is in.
    module: &'static str,
    /// Its path in the module.
    path: String,
    /// What it is and what of ours answers to it.
    watched: Watched,
    /// How it differs.
    state: FileState,
}

/// How a watched file differs between the releases.
enum FileState {
    /// New in the newer release, with its lines.
    Added(usize),
    /// Gone from the newer release.
    Removed,
    /// In both; the declarations that differ.
    Changed(Vec<Change>),
}

/// The watched files of `module` that differ between its two fetched trees.
fn compare_module(
    module: &'static str,
    old: &Fetched,
    new: &Fetched,
) -> Result<Vec<FileChange>, Error> {
    let old_files = watched::files(module, &old.dir)?;
    let new_files = watched::files(module, &new.dir)?;
    let mut out = Vec::new();
    for (path, watched) in &new_files {
        let new_text = read(&new.dir.join(path))?;
        let state = if old_files.contains_key(path) {
            let changes = go_decls::compare(&read(&old.dir.join(path))?, &new_text);
            if changes.is_empty() {
                continue;
            }
            FileState::Changed(changes)
        } else {
            FileState::Added(new_text.lines().count())
        };
        out.push(FileChange {
            module,
            path: path.clone(),
            watched: watched.clone(),
            state,
        });
    }
    for (path, watched) in old_files {
        if !new_files.contains_key(&path) {
            out.push(FileChange {
                module,
                path,
                watched,
                state: FileState::Removed,
            });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The Markdown report.
fn render(
    ours: &Ours,
    from: Release,
    to: Release,
    old: &BTreeMap<String, Fetched>,
    new: &BTreeMap<String, Fetched>,
    files: &[FileChange],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Go's hand-written API code, {from} → {to}\n");
    let _ = writeln!(
        out,
        "Written by `cargo xtask release-diff --from {from} --to {to}`: every file of Go's \
         hand-written conversions, defaulting, validation, strategies, their helpers, \
         printers and served versions that the release changed, with the top-level \
         declarations that differ (`+added/-removed` lines, moved lines not counted) and \
         the files of ours that port it. Modules:\n"
    );
    for (module, fetched) in new {
        let before = old.get(module).map_or("—", |f| f.version.as_str());
        let _ = writeln!(out, "- `{module}` {before} → {}", fetched.version);
    }
    for kind in watched::Kind::ALL {
        let of_kind: Vec<&FileChange> = files.iter().filter(|f| f.watched.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n## {}\n", kind.title());
        for file in of_kind {
            let state = match &file.state {
                FileState::Added(lines) => format!("new, {lines} lines"),
                FileState::Removed => "removed".to_owned(),
                FileState::Changed(changes) => match changes.len() {
                    1 => "1 declaration differs".to_owned(),
                    n => format!("{n} declarations differ"),
                },
            };
            let ported = file.watched.ours(ours);
            let ported = if ported.is_empty() {
                "ours: none yet".to_owned()
            } else {
                let listed: Vec<String> = ported.iter().map(|p| format!("`{p}`")).collect();
                format!("ours: {}", listed.join(", "))
            };
            let module = file.module.trim_start_matches("k8s.io/");
            let _ = writeln!(out, "- [ ] `{module}/{}` ({state}; {ported})", file.path);
            if let FileState::Changed(changes) = &file.state {
                let mut plumbing = Vec::new();
                for change in changes {
                    let line = match change {
                        Change::Added { name, lines } => format!("`{name}`: new, {lines} lines"),
                        Change::Removed { name, lines } => {
                            format!("`{name}`: removed ({lines} lines)")
                        }
                        Change::Changed {
                            name,
                            signature_only: true,
                            ..
                        } => {
                            plumbing.push(format!("`{name}`"));
                            continue;
                        }
                        Change::Changed {
                            name,
                            added,
                            removed,
                            ..
                        } => format!("`{name}`: +{added}/-{removed}"),
                    };
                    let _ = writeln!(out, "  - {line}");
                }
                if !plumbing.is_empty() {
                    let _ = writeln!(out, "  - signature only: {}", plumbing.join(", "));
                }
            }
        }
    }
    if files.is_empty() {
        let _ = writeln!(out, "\nNo watched file differs.");
    }
    out
}
