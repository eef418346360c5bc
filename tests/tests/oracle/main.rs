//! Go as the oracle: Kubernetes' own Go code (v1.36.3, `oracle/`) answers what it does
//! with random objects of every kind, and ours must answer the same:
//!
//! - [`wire`]: Go's round-trip fuzzer's objects, read and written again in JSON, YAML
//!   and protobuf, byte for byte;
//! - [`conversion`]: decode → default → convert to every version of the kind, JSON and
//!   protobuf, byte for byte;
//! - [`validation`]: kube-apiserver's field errors on create and update, for random
//!   objects and for a corpus of invalid ones.
//!
//! Every difference fails the test, unless `known_differences.txt` lists it with Go's
//! reason (a listed difference that does not show is reported: it may need more seeds,
//! or be gone). The seeds per kind are `$K8S_ORACLE_SEEDS` from
//! `$K8S_ORACLE_FIRST_SEED` (CI bounds them and starts at 0; the closing notes and
//! `oracle/results/` record longer runs). Without the oracle's binary the tests pass
//! with a note, except under CI (`CI` set), where they fail: CI builds it with
//! `oracle/build.sh`.

// Test code: a failed expectation is a panic with its reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod client;
mod conversion;
mod diff;
mod known;
#[path = "../../../oracle/binaries.rs"]
mod oracle_binaries;
/// The release whose oracle programs the tests run (`oracle/binaries.rs`): the one this
/// build of k8s-types has.
const RELEASE_UNDER_TEST: &str = k8s_types::RELEASE;
mod outcome;
mod validation;
mod wire;

use apimachinery::runtime::Scheme;
use apimachinery::schema::GroupVersionKind;

use client::GoKind;

/// The Scheme with every built-in kind.
fn scheme() -> Scheme {
    let mut scheme = Scheme::new();
    k8s_types::register(&mut scheme).expect("the built-in kinds register");
    scheme
}

/// Whether our Scheme registers Go's kind.
fn scheme_kind(scheme: &Scheme, kind: &GoKind) -> Result<(), String> {
    let gvk = GroupVersionKind::new(
        kind.group.as_str(),
        kind.version.as_str(),
        kind.kind.as_str(),
    );
    if scheme.recognizes(&gvk) {
        Ok(())
    } else {
        Err(format!("our Scheme does not register {gvk}"))
    }
}

/// Runs one comparison over every kind Go knows and checks its outcome against the
/// known differences.
fn run(
    title: &str,
    default_seeds: u64,
    compare: impl Fn(&mut client::Oracle, &Scheme, &GoKind, std::ops::Range<u64>, &mut outcome::Outcome),
) {
    let Some(mut oracle) = client::Oracle::start(title) else {
        return;
    };
    let scheme = scheme();
    let seeds = client::seeds(default_seeds);
    let mut outcome = outcome::Outcome::default();
    for kind in client::Oracle::kinds() {
        compare(&mut oracle, &scheme, &kind, seeds.clone(), &mut outcome);
    }
    let heading = match seeds.start {
        0 => format!("{title}, {} seed(s) per kind", seeds.end),
        first => format!(
            "{title}, {} seed(s) per kind from seed {first}",
            seeds.end - first
        ),
    };
    eprintln!("{}", outcome.summary(&heading));
    write_kind_table(title, &outcome.kind_table(&heading));
    known::check(title, &outcome);
}

/// With `$K8S_ORACLE_TABLE_DIR` set, writes the per-kind table of a comparison to
/// `DIR/<title>.md` (how the recorded long runs in `oracle/results/` are made).
fn write_kind_table(title: &str, table: &str) {
    if let Some(dir) = std::env::var_os("K8S_ORACLE_TABLE_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).expect("the table directory can be created");
        let path = dir.join(format!("{title}.md"));
        std::fs::write(&path, table).expect("the per-kind table can be written");
        eprintln!("per-kind table: {}", path.display());
    }
}

#[test]
fn wire_random_objects_reencode_as_go() {
    run("wire", 2, |oracle, scheme, kind, seeds, outcome| {
        let codecs = wire::Codecs::new(scheme);
        wire::compare_kind(oracle, scheme, &codecs, kind, seeds, outcome);
    });
}

#[test]
fn conversion_and_defaulting_as_go() {
    run("conversion", 1, |oracle, scheme, kind, seeds, outcome| {
        let codecs = conversion::Codecs::new(scheme);
        conversion::compare_kind(oracle, &codecs, kind, seeds, outcome);
    });
}

#[test]
fn validation_as_kube_apiserver() {
    run("validation", 1, validation::compare_kind);
}

#[test]
fn invalid_corpus_validation_as_kube_apiserver() {
    let Some(mut oracle) = client::Oracle::start("corpus") else {
        return;
    };
    let scheme = scheme();
    let mut outcome = outcome::Outcome::default();
    validation::compare_corpus(&mut oracle, &scheme, &mut outcome);
    eprintln!("{}", outcome.summary("corpus: tests/oracle/invalid"));
    write_kind_table(
        "corpus",
        &outcome.kind_table("corpus: tests/oracle/invalid"),
    );
    known::check("corpus", &outcome);
}
