//! Conversion and defaulting, random values: Go's fuzzer fills an internal object of
//! each kind (with Kubernetes' fuzzer functions, which keep it coherent) and Go writes it
//! in every version of the kind. Each of those is then read as kube-apiserver and
//! `kubectl convert` read a body (decoded, defaulted, converted to the internal version)
//! and written in every version of the kind, JSON and protobuf: ours must write Go's
//! bytes. This covers every hand-written conversion of `pkg/apis/*/v*/conversion.go`
//! and every defaulter, the lossy pairs included.

use std::sync::Arc;

use apimachinery::runtime::Scheme;
use apimachinery::schema::{GroupVersion, InternalGroupVersioner};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{CodecFactory, Decoder, Encoder, VersioningDecoder};

use crate::client::{GoKind, Oracle, api_version, bytes};
use crate::diff;
use crate::outcome::{Column, Outcome};

/// Our side of Go's `DecoderToVersion(json, internal)` and `EncoderForVersion(f, gv)`.
pub struct Codecs<'s> {
    factory: CodecFactory<'s>,
    decoder: VersioningDecoder<'s>,
    json: Arc<dyn Encoder + 's>,
    protobuf: Arc<dyn Encoder + 's>,
}

impl<'s> Codecs<'s> {
    pub fn new(scheme: &'s Scheme) -> Self {
        let factory = CodecFactory::new(scheme);
        let json = JsonSerializer::new(scheme, SerializerOptions::default());
        let decoder =
            factory.decoder_to_version(Arc::new(json.clone()), Arc::new(InternalGroupVersioner));
        Codecs {
            factory,
            decoder,
            json: Arc::new(json),
            protobuf: Arc::new(ProtobufSerializer::new(scheme)),
        }
    }

    /// Ours: `input` read as the server reads a body, then written in `target`, in JSON
    /// and protobuf.
    fn convert(&self, input: &[u8], target: &GroupVersion) -> Result<[Vec<u8>; 2], String> {
        let (obj, _) = self
            .decoder
            .decode(input, None, None)
            .map_err(|e| format!("decode: {e}"))?;
        let encode = |encoder: &Arc<dyn Encoder + 's>| {
            self.factory
                .encoder_for_version(encoder.clone(), Arc::new(target.clone()))
                .encode_to_vec(&*obj)
                .map_err(|e| e.to_string())
        };
        Ok([encode(&self.json)?, encode(&self.protobuf)?])
    }
}

/// Compares the kind's conversions once per group and kind (at its first version).
pub fn compare_kind(
    oracle: &mut Oracle,
    codecs: &Codecs<'_>,
    kind: &GoKind,
    seeds: std::ops::Range<u64>,
    outcome: &mut Outcome,
) {
    if kind.versions.first() != Some(&kind.version) {
        return;
    }
    let group_kind = if kind.group.is_empty() {
        kind.kind.clone()
    } else {
        format!("{}.{}", kind.kind, kind.group)
    };
    if let Some(why) = &kind.not_fuzzable {
        outcome.not_compared(&group_kind, Column::Conversion, why);
        return;
    }
    if !kind.internal {
        outcome.not_compared(
            &group_kind,
            Column::Conversion,
            "no internal version in Go: nothing converts it",
        );
        return;
    }
    for seed in seeds {
        let versions = match oracle.fuzz_internal(&kind.group, &kind.kind, seed) {
            Ok(v) => v,
            Err(e) => {
                outcome.different(
                    &group_kind,
                    Column::Conversion,
                    format!("seed {seed}: Go: {e}"),
                );
                continue;
            }
        };
        for from in &kind.versions {
            let from = api_version(&kind.group, from);
            let Some(input) = bytes(&versions["json"][&from]) else {
                let why = versions["errors"][&from].as_str().unwrap_or("no output");
                outcome.not_compared(
                    &group_kind,
                    Column::Conversion,
                    &format!("Go cannot write {from}: {why}"),
                );
                continue;
            };
            for to in &kind.versions {
                let target = GroupVersion::new(kind.group.as_str(), to.as_str());
                let to = api_version(&kind.group, to);
                let go = oracle
                    .convert(&input, &to)
                    .unwrap_or_else(|e| panic!("oracle: {e}"));
                let ours = codecs.convert(&input, &target);
                let case = format!("seed {seed}: {from} → {to}");
                match (go["error"].as_str(), ours) {
                    (Some(_), Err(_)) => outcome.equal(&group_kind, Column::Conversion),
                    (Some(e), Ok(_)) => outcome.different(
                        &group_kind,
                        Column::Conversion,
                        format!("{case}: Go fails ({e}), ours converts"),
                    ),
                    (None, Err(e)) => outcome.different(
                        &group_kind,
                        Column::Conversion,
                        format!("{case}: ours fails: {e}"),
                    ),
                    (None, Ok([json, protobuf])) => {
                        let go_json = bytes(&go["encoded"]["json"]).unwrap_or_default();
                        let go_pb = bytes(&go["encoded"]["protobuf"]);
                        if json != go_json {
                            outcome.different(
                                &group_kind,
                                Column::Conversion,
                                format!(
                                    "{case}: JSON differs {}",
                                    diff::describe("json", &go_json, &json)
                                ),
                            );
                        } else if let Some(go_pb) = go_pb.filter(|pb| *pb != protobuf) {
                            outcome.different(
                                &group_kind,
                                Column::Conversion,
                                format!(
                                    "{case}: protobuf differs {}",
                                    diff::describe("protobuf", &go_pb, &protobuf)
                                ),
                            );
                        } else {
                            outcome.equal(&group_kind, Column::Conversion);
                        }
                    }
                }
            }
        }
    }
}
