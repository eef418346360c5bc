#!/usr/bin/env bash
# CI's fuzzing step: builds the targets once, seeds the corpora, and runs each target
# for FUZZ_SECONDS (default 15) seconds. Fails on the first crash found (its input is in
# fuzz/artifacts/<target>/ and its report in the output).
#
# Usage: fuzz/run-ci.sh
#   FUZZ_SECONDS=60 fuzz/run-ci.sh               a longer look
#   FUZZ_TARGETS="json_decode yaml" fuzz/run-ci.sh   some targets only (and only they
#                                                    are built: without `server`, the
#                                                    apiserver crate is not; without
#                                                    `kubeconfig`, controller-runtime)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
start=$(date +%s)
read -r -a targets <<<"${FUZZ_TARGETS:-}"
bins=()
for t in "${targets[@]}"; do bins+=(--bin "$t"); done
# Only the optional parts the chosen targets need are built: `server` (the apiserver
# crate) and `kubeconfig` (controller-runtime) are features of their own.
if [ ${#targets[@]} -ne 0 ]; then
  features=()
  for f in server kubeconfig; do
    [[ " ${targets[*]} " == *" $f "* ]] && features+=("$f")
  done
  bins+=(--no-default-features)
  [ ${#features[@]} -ne 0 ] && bins+=(--features "$(IFS=,; echo "${features[*]}")")
fi
# The build at the lowest priority: beside CI's own builds it takes the CPU they leave
# idle (much of a crate's check or build is one thread) rather than half of it. The runs
# below are not: libFuzzer's per-input timeout is wall-clock time.
nice -n 19 "$here/build.sh" "${bins[@]}"
built=$(date +%s)
echo "run-ci.sh: targets built in $((built - start)) s"
"$here/corpus.sh"
"$here/run.sh" "${FUZZ_SECONDS:-15}" "${targets[@]}"
echo "run-ci.sh: done in $(($(date +%s) - start)) s"
