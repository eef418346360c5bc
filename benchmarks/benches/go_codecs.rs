//! Our codecs against Go's, in the same run on the same objects (issue 39): JSON and
//! protobuf decode and encode of Go's Pod, Deployment and ConfigMap fixtures and of a
//! PodList of 1,000 copies of the Pod fixture (each with its own name), through the
//! Scheme's serializers (typed objects, as the API server and the client use them).
//!
//! Go's side is `oracle/bin/k8s-oracle bench` (its `k8s.io/apimachinery` serializers,
//! as kube-apiserver and client-go use them, timed by Go's `testing.Benchmark`), run by
//! this program first; without the oracle built, only ours is measured and the table
//! says so. Ratios are Go's time over ours: above 1, ours is faster.
//!
//! Run: `cargo bench --manifest-path benchmarks/Cargo.toml --bench go_codecs`
//! (`K8S_API_TESTDATA` names Go's fixtures; `K8S_ORACLE` the oracle's binary). With
//! `--features mimalloc`, ours runs on mimalloc (kapi's allocator) instead of the
//! system's; those rows are named apart and carry no target.

use std::collections::BTreeMap;

use apimachinery::runtime::{Object, Scheme};
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::protobuf::ProtobufSerializer;
use apimachinery::serializer::{Decoder, Encoder};
use benchmarks::{Suite, fixture, format_duration, go_oracle_lines, testdata_dir};
use k8s_types::core::v1 as core;

type Error = Box<dyn std::error::Error>;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What the rows say of our allocator: nothing for the system's, which the targets are
/// for.
const ALLOCATOR: &str = if cfg!(feature = "mimalloc") {
    " with mimalloc"
} else {
    ""
};

/// The length of the list Go's bench builds (its `bench.PodListSize`).
const POD_LIST_SIZE: usize = 1000;

/// Go's figures, by (input, op): nanoseconds per op.
type GoFigures = BTreeMap<(String, String), f64>;

/// Go's figures, or `None` when the oracle is not built.
fn go_figures() -> Result<Option<GoFigures>, Error> {
    let dir = testdata_dir()?;
    let Some(lines) = go_oracle_lines(&["bench".as_ref(), dir.as_os_str()])? else {
        return Ok(None);
    };
    let mut figures = BTreeMap::new();
    for r in lines {
        let (Some(input), Some(op), Some(ns)) = (
            r["input"].as_str(),
            r["op"].as_str(),
            r["ns_per_op"].as_f64(),
        ) else {
            return Err(format!("k8s-oracle bench: {r}").into());
        };
        figures.insert((input.to_owned(), op.to_owned()), ns);
    }
    Ok(Some(figures))
}

/// The PodList Go's bench builds: the Pod fixture `POD_LIST_SIZE` times, named `pod-<i>`.
fn pod_list(scheme: &Scheme) -> Result<Box<dyn Object>, Error> {
    let json = JsonSerializer::new(scheme, SerializerOptions::default());
    let (pod, _) = json.decode(&fixture("core.v1.Pod.json")?, None, None)?;
    let pod = pod
        .downcast::<core::Pod>()
        .map_err(|_| "the Pod fixture is not a Pod")?;
    let mut list = core::PodList::default();
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

fn main() -> Result<(), Error> {
    let scheme = Scheme::from_registry()?;
    // Go first, alone on the machine, then ours.
    let go = go_figures()?;
    let json = JsonSerializer::new(&scheme, SerializerOptions::default());
    let protobuf = ProtobufSerializer::new(&scheme);
    let mut inputs: Vec<(&str, Box<dyn Object>)> = Vec::new();
    for (name, file) in [
        ("core.v1.Pod", "core.v1.Pod.json"),
        ("apps.v1.Deployment", "apps.v1.Deployment.json"),
        ("core.v1.ConfigMap", "core.v1.ConfigMap.json"),
    ] {
        inputs.push((name, json.decode(&fixture(file)?, None, None)?.0));
    }
    inputs.push(("PodList", pod_list(&scheme)?));

    let mut suite = Suite::new("go_codecs");
    for (name, obj) in &inputs {
        for (format, codec) in [
            ("json", &json as &dyn Codec),
            ("protobuf", &protobuf as &dyn Codec),
        ] {
            let bytes = codec.encode_to_vec(&**obj)?;
            let n = Some(bytes.len());
            suite.bench(name, &format!("{format}_decode"), n, || {
                codec.decode(&bytes, None, None).ok()
            });
            suite.bench(name, &format!("{format}_encode"), n, || {
                codec.encode_to_vec(&**obj).ok()
            });
        }
    }
    suite.final_summary();

    println!("## Go's codecs against ours{ALLOCATOR}, same objects, same run");
    println!();
    println!("| input | op | Go | ours | Go / ours | target |");
    println!("|---|---|---:|---:|---:|---|");
    let mut rows = Vec::new();
    for (name, _) in &inputs {
        for op in [
            "json_decode",
            "json_encode",
            "protobuf_decode",
            "protobuf_encode",
        ] {
            let Some(ours) = suite.get(name, op) else {
                continue;
            };
            let target = match op {
                "json_decode" => "≥ 5×",
                "protobuf_decode" | "json_encode" | "protobuf_encode" => "≥ 3×",
                _ => "",
            };
            let go_ns = go
                .as_ref()
                .and_then(|g| g.get(&(name.to_string(), op.to_owned())));
            let (go_text, ratio) = match go_ns {
                Some(ns) => (
                    format_duration(std::time::Duration::from_nanos(*ns as u64)),
                    format!("{:.2}×", ns / ours.median.as_nanos() as f64),
                ),
                None => ("not measured".to_owned(), "—".to_owned()),
            };
            println!(
                "| {name} | {op} | {go_text} | {} | {ratio} | {target} |",
                format_duration(ours.median)
            );
            if let Some(ns) = go_ns {
                // The results' ratio is ours / Go: "Go / ours ≥ 5×" is "ratio <= 0.2".
                let max_ratio = if op == "json_decode" { 0.2 } else { 0.33 };
                let row = suite
                    .row(
                        &format!("{name}/{op}{ALLOCATOR} vs Go"),
                        &format!("Go's codecs: {name}, {op}, ours{ALLOCATOR} vs Go"),
                        ours,
                    )
                    .against("Go (k8s.io/apimachinery)", *ns);
                rows.push(if ALLOCATOR.is_empty() {
                    row.target(format!("ratio <= {max_ratio}"))
                } else {
                    row
                });
            }
        }
    }
    suite.save(&rows);
    Ok(())
}

/// A decoder that is an encoder too (both serializers).
trait Codec: Decoder + Encoder {}
impl<T: Decoder + Encoder> Codec for T {}
