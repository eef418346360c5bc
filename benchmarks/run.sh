#!/usr/bin/env bash
# The whole benchmark suite in one run (see BENCHMARKS.md): the comparisons against
# k8s-openapi, serde_json::Value and serde_yaml_ng (this crate, outside the workspace),
# then the benchmarks that need no peer crate and live beside the code they measure
# (RESTMapper, conversion machinery). Each prints its Markdown summary after criterion's
# report; the summaries are collected at the end of the log.
#
# Usage: benchmarks/run.sh [log-file]     (Go's fixtures: set K8S_API_TESTDATA)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
log="${1:-$root/target/benchmarks.log}"
mkdir -p "$(dirname "$log")"
export CARGO_INCREMENTAL=0
: > "$log"
short=(-- --warm-up-time 0.5 --measurement-time 1.5 --sample-size 20)

{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version)"
    for bench in json yaml protobuf clone scheme; do
        cargo bench --manifest-path "$root/benchmarks/Cargo.toml" --bench "$bench" "${short[@]}"
    done
    for bench in rest_mapper conversion; do
        cargo bench --manifest-path "$root/Cargo.toml" -p apimachinery --bench "$bench" "${short[@]}"
    done
} 2>&1 | tee -a "$log"
echo
echo "Summaries (Markdown):"
awk '/^ *(Running|Compiling|Finished|Benchmarking|Gnuplot)/ { p = 0 }
     /^(summary|memory|## |# )/ { p = 1 }
     p' "$log"
