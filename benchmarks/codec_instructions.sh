#!/usr/bin/env bash
# Instructions per call (callgrind) of the codecs on Go's Pod and Deployment fixtures:
# JSON decode (the universal deserializer) and encode, protobuf decode and encode. Each
# row is the marginal cost between two runs of `k8s-types/examples/codec_instructions.rs`
# with FEW and MANY calls, (Ir(MANY) - Ir(FEW)) / (MANY - FEW), so that the Scheme's
# construction and the first, cold calls do not count. Instruction counts move little
# with the load of a shared machine, which is why the compile-time work (issue 44)
# compares run time with them: run it on the tree before and after a change.
#
# Usage: benchmarks/codec_instructions.sh [out.tsv]
# OPERATIONS and FIXTURES (space-separated) choose other rows than the default eight;
# the example also takes `core.v1.ConfigMap` and `PodList` (1,000 named copies of the
# Pod fixture, as the go_codecs bench builds it; FEW=1 MANY=3 keep its runs short).
# Needs valgrind; builds the example in release in the workspace's target directory (with
# k8s-types' dev-dependencies, so apimachinery with its default features: the first build
# compiles k8s-types once more beside `cargo build --release -p k8s-types`'s copy) and
# appends each row to benchmarks/results/codec_instructions.jsonl (see results.sh), or
# runs the binary CODEC_BIN names (a copy kept from the tree before a change) and records
# nothing, since that binary is not this tree's.
# The fixtures: $K8S_API_DIR/testdata (default ../shared/k8s-api/v1.36 beside the checkout,
# else /work/shared/k8s-api/v1.36).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=results.sh
source "$root/benchmarks/results.sh"
api_dir="${K8S_API_DIR:-}"
if [ -z "$api_dir" ]; then
    api_dir="$root/../shared/k8s-api/v1.36"
    [ -d "$api_dir" ] || api_dir=/work/shared/k8s-api/v1.36
fi
testdata="$api_dir/testdata"
few="${FEW:-2}" many="${MANY:-12}"
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 1; }
bin="${CODEC_BIN:-}"
if [ -z "$bin" ]; then
    (cd "$root" && cargo build --quiet --release -p k8s-types --example codec_instructions)
    bin="$root/target/release/examples/codec_instructions"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# ir OPERATION FIXTURE N: the instructions of a whole run with N calls.
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$scratch/out" "$bin" "$testdata" "$1" "$2" "$3" \
        > "$scratch/log" 2>&1 || { echo "$bin $1 $2 $3 failed:" >&2; tail -5 "$scratch/log" >&2; return 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$scratch/out"
}
out="${1:-/dev/stdout}"
{
    printf 'operation\tfixture\tIr per call\n'
    for operation in ${OPERATIONS:-json-decode json-encode protobuf-decode protobuf-encode}; do
        for fixture in ${FIXTURES:-core.v1.Pod apps.v1.Deployment}; do
            a="$(ir "$operation" "$fixture" "$few")"
            b="$(ir "$operation" "$fixture" "$many")"
            per_call=$(( (b - a) / (many - few) ))
            printf '%s\t%s\t%d\n' "$operation" "$fixture" "$per_call"
            if [ -z "${CODEC_BIN:-}" ]; then
                record_result codec_instructions "codec_instructions.$operation.$fixture" \
                    "Instructions per call (callgrind), $operation, Go's $fixture fixture" \
                    "$per_call" instructions "" "" "" \
                    "marginal cost between $few and $many calls; the budget is per change: JSON +5%, protobuf decode +10% (issue 44)"
            fi
        done
    done
} > "$out"
