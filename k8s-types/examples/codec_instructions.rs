//! One codec operation on one of Go's fixtures, repeated: the program
//! `benchmarks/codec_instructions.sh` runs under callgrind twice with different counts,
//! so that the difference is the instructions of the repeated calls alone (the Scheme's
//! construction and the first, cold call cancel out).
//!
//! Usage: `codec_instructions TESTDATA_DIR OPERATION FIXTURE ITERATIONS`, where
//! OPERATION is `json-decode`, `json-encode`, `protobuf-decode` or `protobuf-encode` and
//! FIXTURE a file stem of Go's testdata such as `core.v1.Pod` (its `.json` and `.pb`),
//! or `PodList`: the Pod fixture 1,000 times, each named `pod-<i>`, as the `go_codecs`
//! bench and Go's oracle build it (its decodes read the list as this program's encoder of
//! the same format writes it).

use std::hint::black_box;
use std::path::Path;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use k8s_types::core::v1::{Pod, PodList};

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
            let bytes = if stem == "PodList" {
                let pod = std::fs::read(dir.join("core.v1.Pod.json"))?;
                let list = pod_list(universal.decode(&pod, None, None)?.0)?;
                let encoder: &dyn Encoder = if operation == "json-decode" {
                    &json
                } else {
                    &protobuf
                };
                encoder.encode_to_vec(list.as_ref())?
            } else {
                input(if operation == "json-decode" {
                    "json"
                } else {
                    "pb"
                })?
            };
            for _ in 0..iterations {
                black_box(universal.decode(black_box(&bytes), None, None)?);
            }
        }
        "json-encode" | "protobuf-encode" => {
            let object: Box<dyn Object> = if stem == "PodList" {
                let pod = std::fs::read(dir.join("core.v1.Pod.json"))?;
                pod_list(universal.decode(&pod, None, None)?.0)?
            } else {
                universal.decode(&input("json")?, None, None)?.0
            };
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

/// The length of the list the `go_codecs` bench and Go's oracle build.
const POD_LIST_SIZE: usize = 1000;

/// A PodList of `POD_LIST_SIZE` copies of `pod`, each named `pod-<i>` and without its
/// kind and apiVersion, as the `go_codecs` bench builds it.
fn pod_list(pod: Box<dyn Object>) -> Result<Box<dyn Object>, Error> {
    let pod = pod
        .downcast::<Pod>()
        .map_err(|_| "the Pod fixture is not a Pod")?;
    let mut list = PodList::default();
    list.type_meta.api_version = "v1".to_owned();
    list.type_meta.kind = "PodList".to_owned();
    let items = list.items.get_or_insert_with(Vec::new);
    for i in 0..POD_LIST_SIZE {
        let mut p = (*pod).clone();
        p.type_meta = Default::default();
        p.metadata.name = format!("pod-{i}");
        items.push(p);
    }
    Ok(Box::new(list))
}
