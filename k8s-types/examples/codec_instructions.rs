//! One codec operation on one of Go's fixtures, repeated: the program
//! `benchmarks/codec_instructions.sh` runs under callgrind twice with different counts,
//! so that the difference is the instructions of the repeated calls alone (the Scheme's
//! construction and the first, cold call cancel out).
//!
//! Usage: `codec_instructions TESTDATA_DIR OPERATION FIXTURE ITERATIONS`, where
//! OPERATION is `json-decode`, `json-encode`, `protobuf-decode` or `protobuf-encode` and
//! FIXTURE a file stem of Go's testdata such as `core.v1.Pod` (its `.json` and `.pb`).

use std::hint::black_box;
use std::path::Path;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, operation, stem, iterations] = args.as_slice() else {
        return Err("usage: codec_instructions TESTDATA_DIR OPERATION FIXTURE ITERATIONS".into());
    };
    let iterations: usize = iterations.parse()?;
    // The registry holds the generated kinds only if this crate is linked, which takes a
    // use of one of its items.
    black_box(k8s_types::core::v1::Pod::default());
    let scheme = Scheme::from_registry()?;
    let factory = CodecFactory::new(&scheme);
    let universal = factory.universal_deserializer();
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    let protobuf = ProtobufSerializer::new(&scheme);
    let dir = Path::new(dir);
    let input = |ext: &str| std::fs::read(dir.join(format!("{stem}.{ext}")));
    match operation.as_str() {
        "json-decode" | "protobuf-decode" => {
            let bytes = input(if operation == "json-decode" {
                "json"
            } else {
                "pb"
            })?;
            for _ in 0..iterations {
                black_box(universal.decode(black_box(&bytes), None, None)?);
            }
        }
        "json-encode" | "protobuf-encode" => {
            let (object, _): (Box<dyn Object>, _) =
                universal.decode(&input("json")?, None, None)?;
            let encoder: &dyn Encoder = if operation == "json-encode" {
                &json
            } else {
                &protobuf
            };
            for _ in 0..iterations {
                black_box(encoder.encode_to_vec(black_box(object.as_ref()))?);
            }
        }
        other => return Err(format!("unknown operation {other}").into()),
    }
    Ok(())
}
