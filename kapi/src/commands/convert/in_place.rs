//! `kapi convert --in-place`: each file with objects to convert rewritten minimally,
//! atomically (a temporary file renamed over it), the others untouched; a file that
//! cannot be read or parsed is reported and left as it is. Then a report: each object
//! converted (with its notes), each left for a person with the reason, and a summary.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apimachinery::proto::MAGIC;

use super::minimal::{Minimal, ObjectResult};
use super::write_atomically;
use crate::commands::CommandError;
use crate::commands::inputs::read_inputs;
use crate::progress::Progress;

/// The counts of a run.
#[derive(Debug, Default, PartialEq, Eq)]
struct Summary {
    files_changed: usize,
    objects_converted: usize,
    objects_left: usize,
    objects_kept: usize,
    files_unparsed: usize,
}

pub fn run(
    files: &[PathBuf],
    recursive: bool,
    minimal: &Minimal<'_, '_>,
    out: &mut dyn Write,
) -> Result<ExitCode, CommandError> {
    if files.iter().any(|f| f.as_os_str() == "-") {
        return Err("--in-place rewrites files: standard input (-f -) has none".into());
    }
    let (inputs, errors) = read_inputs(files, recursive);
    let mut summary = Summary::default();
    let mut report = Vec::new();
    for e in &errors {
        eprintln!("error: {e}");
        summary.files_unparsed += 1;
    }
    let mut progress = Progress::new("converting", inputs.len(), std::io::stderr().is_terminal());
    for input in &inputs {
        progress.step(&input.name);
        // Protobuf objects are not manifests anyone edits; they are left alone.
        if input.bytes.starts_with(MAGIC) {
            continue;
        }
        let docs = minimal.file(&input.bytes);
        if let Some(doc) = docs.iter().find(|d| d.result.is_err()) {
            progress.clear();
            if let Err(e) = &doc.result {
                eprintln!(
                    "error: {}: document {}: {e} (file left untouched)",
                    input.name, doc.index
                );
            }
            summary.files_unparsed += 1;
            continue;
        }
        let mut text = Vec::with_capacity(input.bytes.len());
        let mut at = 0;
        let mut changed = false;
        for doc in &docs {
            let Ok(result) = &doc.result else { continue };
            for object in &result.objects {
                let place = object.place(&input.name, doc.index);
                match &object.result {
                    ObjectResult::Converted { from, to, notes } => {
                        summary.objects_converted += 1;
                        report.push(format!("{place}: {}: {from} -> {to}", object.name));
                        report.extend(notes.iter().map(|n| format!("    note: {n}")));
                    }
                    ObjectResult::Left(reason) => {
                        summary.objects_left += 1;
                        report.push(format!(
                            "{place}: {}: left for a person: {reason}",
                            object.name
                        ));
                    }
                    ObjectResult::Kept(reason) => {
                        summary.objects_kept += 1;
                        report.push(format!(
                            "{place}: {}: kept, its version still served: {reason}",
                            object.name
                        ));
                    }
                }
            }
            if result.dropped_comments {
                report.push(format!(
                    "{}: document {}: note: comments inside the parts rewritten whole are gone",
                    input.name, doc.index
                ));
            }
            if let Some(new) = &result.text {
                text.extend_from_slice(&input.bytes[at..doc.range.start]);
                text.extend_from_slice(new.as_bytes());
                at = doc.range.end;
                changed = true;
            }
        }
        if !changed {
            continue;
        }
        text.extend_from_slice(&input.bytes[at..]);
        let path = Path::new(&input.name);
        // Through a symbolic link, the file it names is rewritten.
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match write_atomically(&target, &text) {
            Ok(()) => summary.files_changed += 1,
            Err(e) => {
                progress.clear();
                eprintln!("error: writing {}: {e} (file left as it was)", input.name);
                summary.files_unparsed += 1;
            }
        }
    }
    progress.clear();
    for line in &report {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", summary_line(&summary))?;
    Ok(if summary.objects_left > 0 || summary.files_unparsed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn summary_line(s: &Summary) -> String {
    let n = |count: usize, one: &str, many: &str| {
        format!("{count} {}", if count == 1 { one } else { many })
    };
    let mut line = format!(
        "{} changed, {} converted, {} left for a person",
        n(s.files_changed, "file", "files"),
        n(s.objects_converted, "object", "objects"),
        n(s.objects_left, "object", "objects"),
    );
    if s.objects_kept > 0 {
        line.push_str(&format!(
            ", {} kept on deprecated versions",
            n(s.objects_kept, "object", "objects")
        ));
    }
    if s.files_unparsed > 0 {
        line.push_str(&format!(
            ", {} not read or not parsed (untouched)",
            n(s.files_unparsed, "file", "files")
        ));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_files_and_objects() {
        let s = Summary {
            files_changed: 1,
            objects_converted: 3,
            objects_left: 0,
            objects_kept: 0,
            files_unparsed: 0,
        };
        assert_eq!(
            summary_line(&s),
            "1 file changed, 3 objects converted, 0 objects left for a person"
        );
        let s = Summary {
            files_unparsed: 2,
            ..Summary::default()
        };
        assert!(summary_line(&s).ends_with(", 2 files not read or not parsed (untouched)"));
    }
}
