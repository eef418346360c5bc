//! `kapi validate`: strict decoding of every document, as the API server's strict field
//! validation does: every unknown and duplicate field is reported with its file, document
//! index and JSON path; so is every document that does not decode at all. Protobuf
//! objects (`.pb`) are checked to decode.

use std::io::Write;
use std::process::ExitCode;

use apimachinery::serializer::json::{Serializer, SerializerOptions};
use apimachinery::serializer::{Format, decode_stream, recognize};

use super::CommandError;
use super::inputs::read_inputs;
use crate::cli::ValidateArgs;
use crate::scheme::scheme;

pub fn run(args: &ValidateArgs, out: &mut dyn Write) -> Result<ExitCode, CommandError> {
    let scheme = scheme()?;
    let strict = |yaml| {
        Serializer::new(
            &scheme,
            SerializerOptions {
                yaml,
                pretty: false,
                strict: true,
            },
        )
    };
    let (json, yaml) = (strict(false), strict(true));
    let (inputs, mut problems) = read_inputs(&args.filenames, args.recursive);
    let (mut valid, mut invalid) = (0usize, 0usize);
    for input in &inputs {
        let decoder = match recognize(&input.bytes) {
            Format::Json => &json,
            Format::Yaml => &yaml,
            // Protobuf has no unknown fields to report (Go skips them): the object
            // only has to decode.
            Format::Protobuf => {
                match apimachinery::protobuf::decode_object(&scheme, &input.bytes, None) {
                    Ok(_) => valid += 1,
                    Err(e) => {
                        invalid += 1;
                        problems.push(format!("{}: document 0: {e}", input.name));
                    }
                }
                continue;
            }
        };
        for (position, result) in decode_stream(decoder, &input.bytes, None).enumerate() {
            let Err(e) = result else {
                valid += 1;
                continue;
            };
            invalid += 1;
            let document = e.document().unwrap_or(position);
            match e.as_strict() {
                Some(strict) => {
                    for field in strict.errors() {
                        problems.push(format!(
                            "{}: document {document} ({}): {field}",
                            input.name,
                            strict.gvk()
                        ));
                    }
                }
                None => problems.push(format!("{}: document {document}: {}", input.name, e.kind())),
            }
        }
    }
    for problem in &problems {
        eprintln!("{problem}");
    }
    writeln!(out, "{valid} valid, {invalid} invalid")?;
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
