//! Wire, random values: Go's round-trip fuzzer fills an object of each external kind;
//! Go writes it as JSON, YAML and protobuf, reads each back and writes it again. Ours
//! must read Go's bytes and write Go's bytes: the same format again, and JSON from
//! each format (Go's round-trip test, across the two languages).

use apimachinery::runtime::Scheme;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};

use crate::client::{GoKind, Oracle, bytes};
use crate::diff;
use crate::outcome::{Column, Outcome};
use crate::scheme_kind;

/// Our codecs of the three formats, as the server writes them (compact JSON).
pub struct Codecs<'s> {
    pub json: JsonSerializer<'s>,
    pub yaml: JsonSerializer<'s>,
    pub protobuf: ProtobufSerializer<'s>,
}

impl<'s> Codecs<'s> {
    pub fn new(scheme: &'s Scheme) -> Self {
        let options = |yaml| SerializerOptions {
            yaml,
            pretty: false,
            strict: false,
        };
        Codecs {
            json: JsonSerializer::new(scheme, options(false)),
            yaml: JsonSerializer::new(scheme, options(true)),
            protobuf: ProtobufSerializer::new(scheme),
        }
    }

    fn of(&self, format: &str) -> (&dyn Decoder, &dyn Encoder, Column) {
        match format {
            "json" => (&self.json, &self.json, Column::Json),
            "yaml" => (&self.yaml, &self.yaml, Column::Yaml),
            _ => (&self.protobuf, &self.protobuf, Column::Protobuf),
        }
    }
}

/// Compares one kind over `seeds` seeds, recording into `outcome`.
pub fn compare_kind(
    oracle: &mut Oracle,
    scheme: &Scheme,
    codecs: &Codecs<'_>,
    kind: &GoKind,
    seeds: std::ops::Range<u64>,
    outcome: &mut Outcome,
) {
    let name = format!("{} {}", kind.api_version(), kind.kind);
    if let Some(why) = &kind.not_fuzzable {
        for column in [Column::Json, Column::Yaml, Column::Protobuf] {
            outcome.not_compared(&name, column, why);
        }
        return;
    }
    if let Err(e) = scheme_kind(scheme, kind) {
        outcome.different(&name, Column::Json, e);
        return;
    }
    if !kind.protobuf {
        outcome.not_compared(&name, Column::Protobuf, "no protobuf form in Go");
    }
    for seed in seeds {
        let answer = match oracle.fuzz_wire(kind, seed) {
            Ok(a) => a,
            Err(e) => {
                outcome.different(&name, Column::Json, format!("seed {seed}: Go: {e}"));
                continue;
            }
        };
        for format in ["json", "yaml", "protobuf"] {
            let (decoder, encoder, column) = codecs.of(format);
            let Some(input) = bytes(&answer["encoded"][format]) else {
                if let Some(e) = answer["errors"][format!("encode {format}")].as_str()
                    && (format != "protobuf" || kind.protobuf)
                {
                    outcome.not_compared(&name, column, &format!("Go cannot write it: {e}"));
                }
                continue;
            };
            let decoded = decoder.decode(&input, None, None);
            let go_again = bytes(&answer["reencoded"][format]);
            let go_json = bytes(&answer["as_json"][format]);
            let obj = match (decoded, &go_again) {
                (Ok((obj, _)), _) => obj,
                (Err(e), Some(_)) => {
                    outcome.different(
                        &name,
                        column,
                        format!("seed {seed}: ours cannot read Go's {format}: {e}"),
                    );
                    continue;
                }
                (Err(_), None) => {
                    // Go cannot read its own bytes either: equal behaviour.
                    outcome.equal(&name, column);
                    continue;
                }
            };
            let mut same = true;
            if let Some(go_again) = go_again {
                match encoder.encode_to_vec(&*obj) {
                    Ok(ours) if ours == go_again => {}
                    Ok(ours) => {
                        same = false;
                        outcome.different(
                            &name,
                            column,
                            format!(
                                "seed {seed}: {format} re-encodes differently {}",
                                diff::describe(format, &go_again, &ours)
                            ),
                        );
                    }
                    Err(e) => {
                        same = false;
                        outcome.different(
                            &name,
                            column,
                            format!("seed {seed}: ours cannot write {format}: {e}"),
                        );
                    }
                }
            }
            if let (Some(go_json), true) = (go_json, same) {
                match codecs.json.encode_to_vec(&*obj) {
                    Ok(ours) if ours == go_json => {}
                    Ok(ours) => {
                        same = false;
                        outcome.different(
                            &name,
                            column,
                            format!(
                                "seed {seed}: JSON of what {format} decodes to differs {}",
                                diff::describe("json", &go_json, &ours)
                            ),
                        );
                    }
                    Err(e) => {
                        same = false;
                        outcome.different(
                            &name,
                            column,
                            format!("seed {seed}: ours cannot write JSON: {e}"),
                        );
                    }
                }
            }
            if same {
                outcome.equal(&name, column);
            }
        }
    }
}
