//! Protobuf decode and encode of Go's Pod and Deployment fixtures (the `.pb` envelope
//! files), against our own JSON decode and encode of the same objects, with the sizes
//! of both encodings. Target: protobuf decode at least 3× faster than JSON, smaller bytes.
//!
//! When the generated types cannot be read from protobuf yet, this prints "pending" and
//! the error, and measures nothing.
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench protobuf`

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{CodecFactory, Decoder, Encoder};
use benchmarks::{Comparison, Suite, fixture};

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    // The registry holds the generated kinds only if `k8s_types` is linked, which takes
    // a use of one of its items.
    std::hint::black_box(k8s_types::core::v1::Pod::default());
    let scheme = Scheme::from_registry()?;
    let factory = CodecFactory::new(&scheme);
    let universal = factory.universal_deserializer();
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    let protobuf = ProtobufSerializer::new(&scheme);

    let mut suite = Suite::new("protobuf");
    let mut groups = Vec::new();
    for (name, stem) in [
        ("Pod fixture", "core.v1.Pod"),
        ("Deployment fixture", "apps.v1.Deployment"),
    ] {
        let pb = fixture(&format!("{stem}.pb"))?;
        let js = fixture(&format!("{stem}.json"))?;
        let object: Box<dyn Object> = match universal.decode(&pb, None, None) {
            Ok((object, _)) => object,
            Err(e) => {
                println!("\n## Protobuf\n\npending: {stem}.pb does not decode yet: {e}");
                return Ok(());
            }
        };
        let pb_out = protobuf.encode_to_vec(object.as_ref())?;
        let js_out = json.encode_to_vec(object.as_ref())?;
        universal.decode(&js, None, None)?;
        println!(
            "{name}: protobuf {} bytes, JSON {} bytes ({:.2}×)",
            pb_out.len(),
            js_out.len(),
            pb_out.len() as f64 / js_out.len() as f64
        );

        let decode = format!("protobuf decode/{name}");
        suite.bench(&decode, "ours JSON", Some(js.len()), || {
            universal.decode(&js, None, None).ok()
        });
        suite.bench(&decode, "ours protobuf", Some(pb.len()), || {
            universal.decode(&pb, None, None).ok()
        });
        let encode = format!("protobuf encode/{name}");
        suite.bench(&encode, "ours JSON", Some(js_out.len()), || {
            json.encode_to_vec(object.as_ref()).ok()
        });
        suite.bench(&encode, "ours protobuf", Some(pb_out.len()), || {
            protobuf.encode_to_vec(object.as_ref()).ok()
        });
        groups.push((decode, encode));
    }
    suite.final_summary();

    let mut comparisons = Vec::new();
    for (decode, encode) in &groups {
        comparisons.push(Comparison {
            group: decode,
            ours: "ours protobuf",
            peer: "ours JSON",
            target: Some(1.0 / 3.0),
        });
        comparisons.push(Comparison {
            group: encode,
            ours: "ours protobuf",
            peer: "ours JSON",
            target: None,
        });
    }
    suite.print_summary("Protobuf", &comparisons);
    Ok(())
}
