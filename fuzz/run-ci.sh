#!/usr/bin/env bash
# CI's fuzzing step: builds every target once, seeds the corpora, and runs each target
# for FUZZ_SECONDS (default 15) seconds. Fails on the first crash found (its input is in
# fuzz/artifacts/<target>/ and its report in the output).
#
# Usage: fuzz/run-ci.sh              (FUZZ_SECONDS=60 fuzz/run-ci.sh for a longer look)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
start=$(date +%s)
"$here/build.sh"
built=$(date +%s)
echo "run-ci.sh: targets built in $((built - start)) s"
"$here/corpus.sh"
"$here/run.sh" "${FUZZ_SECONDS:-15}"
echo "run-ci.sh: done in $(($(date +%s) - start)) s"
