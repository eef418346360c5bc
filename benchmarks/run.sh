#!/usr/bin/env bash
# The whole benchmark suite in one run (see BENCHMARKS.md): the clean release builds of
# k8s-types and k8s-openapi (compile_time.sh, each through a throwaway crate), the
# comparisons against k8s-openapi, serde_json::Value, serde_yaml_ng and kube-runtime
# (this crate, outside the workspace), the controller-runtime cache against kube-runtime's
# store (`cache`), then the RESTMapper benchmark, which needs no peer crate and lives
# beside the code it measures. Each prints its Markdown summary after criterion's
# report; the summaries, the build times and each step's duration are collected at the
# end of the log.
# apimachinery's other benches (conversion machinery on hand-written types, the JSON
# serializer, the YAML text layer) run alone: `cargo bench -p apimachinery --bench
# NAME`; the suite's conversion figures come from `clone`.
#
# Every figure with a peer or a target is also appended, one JSON line each, to
# benchmarks/results/AREA.jsonl (compile_time, json, yaml, protobuf, clone, scheme,
# reconcile, cache, suite; see benchmarks/results/README.md); `cargo xtask bench-report`
# then writes the current table at the top of BENCHMARKS.md.
#
# Usage: benchmarks/run.sh [log-file]     (Go's fixtures: set K8S_API_TESTDATA)
# COMPILE_TIME=0 skips the clean builds and reuses what is built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=results.sh
source "$root/benchmarks/results.sh"
# The benches' rows name the commit as it was when the run started, and this machine.
export RESULTS_COMMIT="$results_commit" RESULTS_MACHINE="$results_machine"
log="${1:-$root/target/benchmarks.log}"
mkdir -p "$(dirname "$log")"
export CARGO_INCREMENTAL=0
: > "$log"
short=(-- --warm-up-time 0.3 --measurement-time 1 --sample-size 20)
start="$(date +%s)"
step() { echo "step: $1 done at +$(( $(date +%s) - start )) s"; }

{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version), $(git -C "$root" rev-parse --short HEAD)"
    if [ "${COMPILE_TIME:-1}" = 1 ]; then
        "$root/benchmarks/compile_time.sh"
        step "clean release builds"
    fi
    # All bench binaries first, in one cargo call each (built side by side on all cores,
    # where one call per bench would link them one at a time).
    cargo bench --manifest-path "$root/benchmarks/Cargo.toml" --no-run
    cargo bench --manifest-path "$root/Cargo.toml" -p apimachinery --bench rest_mapper --no-run
    step "bench builds"
    for bench in json yaml protobuf clone scheme reconcile; do
        cargo bench --manifest-path "$root/benchmarks/Cargo.toml" --bench "$bench" "${short[@]}"
        step "bench $bench"
    done
    echo "## controller-runtime cache: bytes per cached object, watch replay"
    cargo run -q --release --manifest-path "$root/benchmarks/Cargo.toml" --bin cache -- 10000 1000
    step "cache"
    echo "## Watch decode on recorded streams, ours vs client-go"
    cargo run -q --release --manifest-path "$root/benchmarks/Cargo.toml" --bin watch_decode -- 10000 1000 5 5
    step "watch decode"
    cargo bench --manifest-path "$root/Cargo.toml" -p apimachinery --bench rest_mapper "${short[@]}"
    step "bench rest_mapper"
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    if [ "${COMPILE_TIME:-1}" = 1 ]; then
        record_result suite suite.duration "Whole suite, clean builds included (run.sh)" \
            "$(( $(date +%s) - start ))" s "" "" "ours <= 900" \
            "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
} 2>&1 | tee -a "$log"
echo
echo "Summaries (Markdown):"
awk '/^ *(Running|Compiling|Finished|Benchmarking|Gnuplot)/ { p = 0 }
     /^(summary|memory|## |# |step: |load average|clean release|k8s-types |k8s-openapi )/ { p = 1 }
     p' "$log"
