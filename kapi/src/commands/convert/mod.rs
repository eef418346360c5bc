//! `kapi convert`: manifests to another API version, as `kubectl convert` does, offline.
//!
//! Each document of each input is decoded as it is written (JSON or YAML, multi-document
//! streams, `List`s and other documents with `items`, or a Kubernetes protobuf object),
//! converted (see [`converter`]), and written in the input's order (see [`output`]).
//!
//! With `--minimal` the output differs from the input only by the conversion (see
//! [`minimal`]); `--in-place` writes that into the files themselves (see [`in_place`]).
//!
//! A bad document (unreadable file, invalid YAML, unknown kind of a built-in group,
//! impossible conversion) is reported on one line with its file and document index; the
//! others are still written, and the exit code is 1. Custom resources pass through
//! unchanged, with one warning line per kind (not per object) on standard error; with
//! `-o protobuf` the writer reports them instead, as they have no protobuf form.

mod converter;

mod in_place;
mod minimal;
mod minimal_stream;
mod output;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apimachinery::schema::GroupVersion;

use super::CommandError;
use super::documents::documents;
use super::inputs::read_inputs;
use crate::cli::{ConvertArgs, ConvertOutput};
use crate::progress::Progress;
use crate::scheme::scheme;
use converter::Converter;
use output::{Layout, Located, Writer};

/// How the converted objects are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `kapi convert`: one output document per input document, in order.
    Stream,
    /// `kubectl convert`'s layout, for the plugin: list items flattened, and everything
    /// wrapped in one `v1 List` unless the input is one file holding one object.
    Kubectl,
}

/// Runs `convert` with `args`, writing to `out` (or `--output-file`).
pub fn run(args: &ConvertArgs, mode: Mode, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    if args.local == Some(false) {
        return Err("--local=false: kapi converts offline only and never contacts a server".into());
    }
    let scheme = scheme()?;
    let target = args
        .output_version
        .as_deref()
        .map(str::parse::<GroupVersion>)
        .transpose()
        .map_err(|e| format!("--output-version: {e}"))?;
    let mut converter = Converter::new(&scheme, target, args.strict);
    let files: Vec<PathBuf> = args.files.iter().map(PathBuf::from).collect();
    if args.minimal || args.in_place || args.target_version.is_some() {
        return run_minimal(args, mode, &converter, &files, out);
    }
    let (inputs, errors) = read_inputs(&files, args.recursive);
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut failed = !errors.is_empty();
    let mut converted: Vec<Located> = Vec::new();
    let mut progress = Progress::new("converting", inputs.len(), std::io::stderr().is_terminal());
    for input in &inputs {
        progress.step(&input.name);
        for (index, doc) in documents(&input.bytes) {
            match doc.and_then(|doc| converter.document(doc)) {
                Ok(Some(c)) => converted.push((format!("{}: document {index}", input.name), c)),
                Ok(None) => {}
                Err(e) => {
                    progress.clear();
                    eprintln!("error: {}: document {index}: {e}", input.name);
                    failed = true;
                }
            }
            let custom_kinds = converter.new_custom_kinds();
            // Protobuf output cannot pass them through: the writer reports each object.
            if args.output != ConvertOutput::Protobuf && !custom_kinds.is_empty() {
                progress.clear();
                for gvk in custom_kinds {
                    eprintln!(
                        "warning: {gvk} is not a built-in kind; its objects are passed through unchanged"
                    );
                }
            }
        }
    }
    progress.clear();
    let layout = match mode {
        Mode::Stream => Layout::Stream,
        Mode::Kubectl => {
            // kubectl prints a lone object as itself only when one file (not a
            // directory, not standard input) was named.
            let single_file = matches!(&files[..], [f] if f.as_os_str() != "-" && !f.is_dir());
            Layout::KubectlList { single_file }
        }
    };
    let writer = Writer::new(&converter, args.output);
    let (text, problems) = writer.write(converted, layout);
    for p in &problems {
        eprintln!("error: {p}");
    }
    failed |= !problems.is_empty();
    if mode == Mode::Kubectl && text.is_empty() && !failed {
        return Err("no objects passed to convert".into());
    }
    finish(args, &text, failed, out)
}

/// `--minimal` and `--in-place` (see [`minimal`]).
fn run_minimal(
    args: &ConvertArgs,
    mode: Mode,
    converter: &Converter<'_>,
    files: &[PathBuf],
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if mode == Mode::Kubectl {
        return Err(
            "--minimal, --in-place and --target-version are kapi convert's, not kubectl convert's"
                .into(),
        );
    }
    if !matches!(args.output, ConvertOutput::Yaml | ConvertOutput::Json) {
        return Err("--minimal and --in-place write YAML or JSON (-o yaml, -o json)".into());
    }
    let select = match (args.target_version, args.in_place) {
        (Some(release), _) => minimal::Select::DeprecatedBy(release),
        (None, true) => minimal::Select::DeprecatedBy(k8s_types::lifecycle::latest_release()),
        (None, false) => minimal::Select::All,
    };
    let minimal = minimal::Minimal::new(converter, select);
    if args.in_place {
        return in_place::run(files, args.recursive, &minimal, out);
    }
    let (text, failed) = minimal_stream::write(files, args.recursive, &minimal, args.output);
    finish(args, &text, failed, out)
}

/// Writes `text` to `--output-file` or `out`; the exit code says whether anything
/// `failed`.
fn finish(
    args: &ConvertArgs,
    text: &[u8],
    failed: bool,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    match &args.output_file {
        Some(path) => {
            write_atomically(path, text).map_err(|e| format!("writing {}: {e}", path.display()))?
        }
        None => out.write_all(text)?,
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes `data` to `path` through a temporary file in the same directory, renamed over
/// `path`: readers see the old file or the new one, never a part. An existing file's
/// permissions are kept.
fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(data).and_then(|()| f.sync_all()))
        .and_then(|()| match permissions {
            Some(p) => std::fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
