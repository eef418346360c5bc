#!/usr/bin/env bash
# Runs fuzz targets, each for a bounded time, on the corpora corpus.sh builds.
#
# Usage: fuzz/run.sh SECONDS [TARGET...]     (default: every target)
# A crash, a leak-free out-of-memory, a timeout or a stack overflow stops that target
# with libFuzzer's report and its input saved as fuzz/artifacts/<target>/crash-*;
# the script then exits non-zero after the other targets ran. Each target's last
# status line (executions, exec/s, cov, ft, corpus) is printed at the end.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:?usage: run.sh SECONDS [TARGET...]}"
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(json_decode yaml protobuf quantity time selectors schema patch restmapper kubeconfig server)
fi
triple="$(rustc -vV | sed -n 's/^host: //p')"
bin="$here/target/$triple/fuzz"
failed=()
summary=()
for t in "${targets[@]}"; do
  [ -x "$bin/$t" ] || { echo "run.sh: $bin/$t not built (fuzz/build.sh)" >&2; failed+=("$t"); continue; }
  mkdir -p "$here/corpus/$t" "$here/artifacts/$t"
  dict=()
  case "$t" in
    json_decode|patch|server) [ -f "$here/dict/json.dict" ] && dict=(-dict="$here/dict/json.dict") ;;
    yaml) [ -f "$here/dict/yaml.dict" ] && dict=(-dict="$here/dict/yaml.dict") ;;
    quantity|time|selectors|schema|restmapper|kubeconfig) [ -f "$here/dict/$t.dict" ] && dict=(-dict="$here/dict/$t.dict") ;;
  esac
  log="$here/artifacts/$t/last-run.log"
  # -rss_limit_mb: a 4 KiB input allocating gigabytes is a finding, not a slow run.
  # -max_len: inputs up to 64 KiB (the fixtures go up to ~30 KiB).
  "$bin/$t" "$here/corpus/$t" "${dict[@]}" -max_total_time="$seconds" -max_len=65536 \
    -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$here/artifacts/$t/" >"$log" 2>&1
  rc=$?
  last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
  summary+=("$(printf '%-12s rc=%s execs=%s exec/s=%s  %s' "$t" "$rc" "$execs" "$rate" "$last")")
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    grep -E -A25 "panicked at|ERROR: libFuzzer|deadly signal|stack overflow" "$log" | head -60
  fi
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "run.sh: failed: ${failed[*]}"
  exit 1
fi
