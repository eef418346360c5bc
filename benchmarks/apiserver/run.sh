#!/usr/bin/env bash
# Requests per second of `kapi serve` (memory, redb, etcd) with keep-alive connections:
# create, get (quorum, and resourceVersion=0 from the watch cache), list of 500, merge
# patch and delete of ConfigMaps, in JSON and in protobuf, driven by wrk (Debian's
# package) with ops.lua; watch fan-out (watch_fanout.py: WATCHERS watches, one writer);
# and etcd's own ceiling (the storage_throughput example, when STORAGE_THROUGHPUT names
# its binary, and etcdctl check perf).
#
# Usage: benchmarks/apiserver/run.sh KAPI_BINARY [N] [CLIENTS] [SECONDS] [WATCHERS] [WATCH_EVENTS]
# KAPI_BINARY: cargo build --release -p kapi (before issue 40, the etcd run needed
# --features etcd).
# BACKENDS (default "memory redb etcd") and ENCODINGS (default "json protobuf") select.
# Each rate is also appended to benchmarks/results/apiserver.jsonl (see
# benchmarks/results/README.md), beside Rusternetes' rate on etcd from issue 17 where
# there is one (a fixed figure, not measured in the run; targets ≥ 2× on etcd, ≥ 10× in
# memory).
set -euo pipefail
kapi="$1"; n="${2:-2000}"; clients="${3:-4}"; secs="${4:-5}"
watchers="${5:-100}"; watch_events="${6:-500}"
backends="${BACKENDS:-memory redb etcd}"; encodings="${ENCODINGS:-json protobuf}"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../results.sh
source "$here/../results.sh"

# record_rate OP RATE P50 P99: the rate as a results row; OP's name as the history's
# tables give it, and Rusternetes' rate for it (issue 17: create, get, list, patch and
# delete on Debian's etcd 3.4, 2,000 ConfigMaps, 4 clients).
record_rate() {
  local name peer_value="" target=""
  case "$1" in
    create) name="create"; peer_value=875 ;;
    get) name="get (quorum)"; peer_value=3228 ;;
    get0) name="get resourceVersion=0" ;;
    list) name="list of 500"; peer_value=79 ;;
    patch) name="merge patch"; peer_value=906 ;;
    delete) name="delete"; peer_value=1832 ;;
  esac
  local wire; wire="$([ "$enc" = json ] && echo JSON || echo protobuf)"
  case "$backend" in
    etcd) [ -n "$peer_value" ] && target="ratio >= 2" ;;
    memory) [ -n "$peer_value" ] && target="ratio >= 10" ;;
  esac
  record_result apiserver "apiserver.$backend/$name $wire${peer_value:+ vs Rusternetes}" \
    "kapi serve on $backend: $name, $wire, requests per second" "$2" req/s \
    "$([ -n "$peer_value" ] && echo "Rusternetes on etcd")" "$peer_value" "$target" \
    "run.sh $n objects, $clients clients, $secs s; p50 $3, p99 $4; load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

phase() { # url op
  local out
  out="$(OP="$2" ENC="$enc" N="$n" THREADS="$clients" wrk -t"$clients" -c"$clients" -d"${secs}s" --latency -s "$here/ops.lua" "$1" 2>&1)"
  local rate p50 p99 errors
  rate="$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out")"
  if [ "$2" = create ] || [ "$2" = delete ]; then
    # These touch each object once and their threads stop when done, but wrk divides by
    # the whole run: the rate is the clients over the mean latency (Little's law for a
    # closed loop of $clients connections, each always with one request outstanding).
    rate="$(awk -v c="$clients" '$1 == "Latency" && $2 ~ /^[0-9]/ {
        v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        s = (u == "us") ? v / 1e6 : (u == "ms") ? v / 1e3 : v;
        printf "%.0f", c / s }' <<<"$out")"
  fi
  p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  errors="$(awk '/Non-2xx/ {print $5}' <<<"$out")"
  printf '| %s | %s | %s | %s/s | %s | %s | %s |\n' "$backend" "$enc" "$2" "$rate" "$p50" "$p99" "${errors:-0}"
  if [ "${errors:-0}" = 0 ]; then record_rate "$2" "$rate" "$p50" "$p99"; fi
}

serve() { # backend-flags...
  local p; p="$(port)"
  "$kapi" serve --insecure-http --listen "127.0.0.1:$p" --kubeconfig "$work/kubeconfig" "$@" > "$work/serve.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$p/readyz" >/dev/null && break; sleep 0.1; done
  curl -sf -X POST -H 'Content-Type: application/json' \
    -d '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}}' \
    "http://127.0.0.1:$p/api/v1/namespaces" >/dev/null
  url="http://127.0.0.1:$p"
}

run_backend() {
  for enc in $encodings; do
    for op in create get get0 list patch delete; do phase "$url" "$op"; done
  done
  for enc in $encodings; do
    fanout+=("| $backend | $enc | $(python3 "$here/watch_fanout.py" "$url" "$watchers" "$watch_events" "$enc") |")
    curl -sf -X DELETE "$url/api/v1/namespaces/bench/configmaps" >/dev/null
  done
  kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null || true
}

fanout=()
echo "| backend | encoding | operation | rate | p50 | p99 | non-2xx |"
echo "|---|---|---|---:|---:|---:|---:|"
case " $backends " in *" memory "*) backend=memory; serve; run_backend;; esac
case " $backends " in *" redb "*) backend=redb; serve --data-dir "$work/data"; run_backend;; esac
if [[ " $backends " == *" etcd "* ]] && command -v etcd >/dev/null; then
  cp="$(port)"; pp="$(port)"
  etcd --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$cp" \
    --advertise-client-urls "http://127.0.0.1:$cp" --listen-peer-urls "http://127.0.0.1:$pp" \
    --initial-advertise-peer-urls "http://127.0.0.1:$pp" --initial-cluster "default=http://127.0.0.1:$pp" \
    > "$work/etcd.log" 2>&1 &
  pids+=($!)
  sleep 2
  backend=etcd; serve --etcd-servers "http://127.0.0.1:$cp"; run_backend
  if [ -n "${STORAGE_THROUGHPUT:-}" ]; then
    echo
    echo "etcd's own ceiling, same etcd, $clients clients (storage_throughput):"
    "$STORAGE_THROUGHPUT" etcd "http://127.0.0.1:$cp" 4000 "$clients"
  fi
  echo
  echo "etcd's own ceiling (etcdctl check perf --load=s):"
  ETCDCTL_API=3 etcdctl --endpoints "http://127.0.0.1:$cp" check perf --load=s 2>&1 | tr '\r' '\n' | grep -E '^(PASS|FAIL)' || true
fi
echo
echo "Watch fan-out ($watchers watchers, one writer, $watch_events events each):"
printf '%s\n' "${fanout[@]}"
