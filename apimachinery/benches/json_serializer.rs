//! The JSON serializer against what a user would otherwise write: `serde_json` straight
//! into the type (`serde_json::from_slice::<Deployment>` / `serde_json::to_vec`), on the
//! Deployment kubectl writes. Our decode reads the type straight from the bytes with
//! its monomorphized decode, picking it from the leading `kind`/`apiVersion`; strict
//! mode goes through erased-serde and a `serde_json::Value` to record key paths,
//! duplicates and ignored fields. `encode/serde_json_go_formatter` is serde_json with
//! our Go formatter and no serializer around it: the formatter's own cost. After
//! criterion's report, a summary prints the times and the ratios.
//!
//! Run: `cargo bench -p apimachinery --bench json_serializer -- --warm-up-time 1 --measurement-time 2`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use serde::{Deserialize, Serialize};

use apimachinery::ApiObject;
use apimachinery::apis::meta::v1::{LabelSelector, ObjectMeta};
use apimachinery::runtime::Scheme;
use apimachinery::serializer::json::{JsonSerializer, SerializerOptions};
use apimachinery::serializer::{Decoder, Encoder};
use apimachinery::util::json::GoFormatter;

#[derive(ApiObject, Clone, Debug, Default, PartialEq)]
#[api(group = "apps", version = "v1", kind = "Deployment")]
struct Deployment {
    metadata: ObjectMeta,
    spec: DeploymentSpec,
    status: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct DeploymentSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    replicas: Option<i32>,
    selector: Option<LabelSelector>,
    template: PodTemplateSpec,
    strategy: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct PodTemplateSpec {
    metadata: ObjectMeta,
    spec: PodSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct PodSpec {
    containers: Vec<Container>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Container {
    name: String,
    image: String,
    ports: Vec<BTreeMap<String, i64>>,
    resources: BTreeMap<String, String>,
}

const DEPLOYMENT: &[u8] = include_bytes!("../tests/data/deployment.kubectl.json");

fn time<R>(iterations: u32, mut f: impl FnMut() -> R) -> Duration {
    let start = Instant::now();
    for _ in 0..iterations {
        black_box(f());
    }
    start.elapsed() / iterations
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut scheme = Scheme::new();
    scheme.add_known_type::<Deployment>()?;
    let plain = JsonSerializer::new(&scheme, SerializerOptions::default());
    let strict = JsonSerializer::new(
        &scheme,
        SerializerOptions {
            strict: true,
            ..SerializerOptions::default()
        },
    );
    let typed: Deployment = serde_json::from_slice(DEPLOYMENT)?;
    // Both sides must succeed, or the times would compare failures.
    plain.decode(DEPLOYMENT, None, None)?;
    strict.decode(DEPLOYMENT, None, None)?;

    let mut c = Criterion::default().configure_from_args();
    c.bench_function("decode/serde_json_direct", |b| {
        b.iter(|| serde_json::from_slice::<Deployment>(black_box(DEPLOYMENT)).ok())
    });
    c.bench_function("decode/serializer", |b| {
        b.iter(|| plain.decode(black_box(DEPLOYMENT), None, None).ok())
    });
    c.bench_function("decode/serializer_strict", |b| {
        b.iter(|| strict.decode(black_box(DEPLOYMENT), None, None).ok())
    });
    c.bench_function("encode/serde_json_direct", |b| {
        b.iter(|| serde_json::to_vec(black_box(&typed)).ok())
    });
    c.bench_function("encode/serde_json_go_formatter", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(128);
            let mut ser = serde_json::Serializer::with_formatter(&mut out, GoFormatter::compact());
            black_box(&typed).serialize(&mut ser).ok().map(|()| out)
        })
    });
    c.bench_function("encode/serializer", |b| {
        b.iter(|| plain.encode_to_vec(black_box(&typed)).ok())
    });
    c.final_summary();

    const N: u32 = 20_000;
    let direct = time(N, || serde_json::from_slice::<Deployment>(DEPLOYMENT).ok());
    let ours = time(N, || plain.decode(DEPLOYMENT, None, None).ok());
    let ours_strict = time(N, || strict.decode(DEPLOYMENT, None, None).ok());
    let enc_direct = time(N, || serde_json::to_vec(&typed).ok());
    let enc_ours = time(N, || plain.encode_to_vec(&typed).ok());
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!("summary ({} byte Deployment):", DEPLOYMENT.len());
    println!(
        "  decode  serde_json direct {direct:?}, serializer {ours:?} ({:.2}x), strict {ours_strict:?} ({:.2}x)",
        ratio(ours, direct),
        ratio(ours_strict, direct)
    );
    println!(
        "  encode  serde_json direct {enc_direct:?}, serializer (Go formatter) {enc_ours:?} ({:.2}x)",
        ratio(enc_ours, enc_direct)
    );
    Ok(())
}
