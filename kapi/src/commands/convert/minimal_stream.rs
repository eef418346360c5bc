//! `kapi convert --minimal` to standard output (or `--output-file`): each document of
//! each input, converted minimally, in the input's order. A YAML document written as
//! YAML is the input's own text with the conversion's edits; otherwise the converted
//! value is written in the chosen format, keys in the input's order.

use apimachinery::proto::MAGIC;

use super::minimal::{Minimal, ObjectResult, emit_document};
use crate::cli::ConvertOutput;
use crate::commands::inputs::read_inputs;

/// The output for `files`, and whether anything failed (reported on standard error).
pub fn write(
    files: &[std::path::PathBuf],
    recursive: bool,
    minimal: &Minimal<'_, '_>,
    format: ConvertOutput,
) -> (Vec<u8>, bool) {
    let (inputs, errors) = read_inputs(files, recursive);
    let mut failed = !errors.is_empty();
    for e in &errors {
        eprintln!("error: {e}");
    }
    let mut docs: Vec<String> = Vec::new();
    for input in &inputs {
        if input.bytes.starts_with(MAGIC) {
            eprintln!(
                "error: {}: --minimal reads JSON and YAML, not protobuf",
                input.name
            );
            failed = true;
            continue;
        }
        let yaml_input = apimachinery::serializer::recognize(&input.bytes)
            == apimachinery::serializer::Format::Yaml;
        for doc in minimal.file(&input.bytes) {
            let at = format!("{}: document {}", input.name, doc.index);
            let result = match doc.result {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {at}: {e}");
                    failed = true;
                    continue;
                }
            };
            for object in &result.objects {
                let place = object.place(&input.name, doc.index);
                match &object.result {
                    ObjectResult::Converted { notes, .. } => {
                        for n in notes {
                            eprintln!("note: {place}: {}: {n}", object.name);
                        }
                    }
                    ObjectResult::Kept(reason) => {
                        eprintln!("warning: {place}: {}: not converted: {reason}", object.name);
                    }
                    ObjectResult::Left(reason) => {
                        eprintln!("error: {place}: {}: not converted: {reason}", object.name);
                        failed = true;
                    }
                }
            }
            let Some(value) = &result.value else { continue };
            let original = &input.bytes[doc.range.clone()];
            let text = match (format, yaml_input) {
                (ConvertOutput::Yaml, true) => result
                    .text
                    .clone()
                    .unwrap_or_else(|| String::from_utf8_lossy(original).into_owned()),
                _ => emit_document(value, format == ConvertOutput::Json),
            };
            docs.push(text);
        }
    }
    let mut out = Vec::new();
    for (i, doc) in docs.iter().enumerate() {
        if format == ConvertOutput::Yaml && i > 0 {
            out.extend_from_slice(b"---\n");
        }
        out.extend_from_slice(doc.as_bytes());
        if !doc.ends_with('\n') {
            out.push(b'\n');
        }
    }
    (out, failed)
}
