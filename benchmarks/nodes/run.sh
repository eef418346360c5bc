#!/usr/bin/env bash
# PODS Pods (default 10,000, one Deployment) scheduled and Running on NODES simulated
# Nodes (default 100) of `kapi serve --controllers=* --nodes NODES`, in memory: the time
# from `kubectl create deployment` until every replica is available (the ReplicaSet
# controller creating the Pods, the scheduler binding them, the kubelet stand-in running
# them), and the server's peak resident memory (API server, storage and controllers, one
# process), from /proc/PID/status VmHWM.
#
# Usage: benchmarks/nodes/run.sh KAPI_BINARY [PODS] [NODES]
# KAPI_BINARY: cargo build --release -p kapi. Needs kubectl.
# The rows go to benchmarks/results/nodes.jsonl (see benchmarks/results/README.md),
# beside KWOK's documented rate, "KWOK can create 20 nodes or pods per second"
# (https://kwok.sigs.k8s.io, "Why KWOK?"; a fixed figure, not measured here): 10,000
# Pods at 20 Pods/s are 500 s. KWOK publishes no memory figure for this size.
set -euo pipefail
kapi="$1"; pods="${2:-10000}"; nodes="${3:-100}"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../results.sh
source "$here/../results.sh"

work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$kapi" serve --listen 127.0.0.1:0 --kubeconfig "$work/kubeconfig" \
  --controllers='*' --nodes "$nodes" > "$work/out" 2>"$work/err" &
server=$!
for _ in $(seq 1 600); do
  grep -q "controllers running" "$work/out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.1
done
k() { kubectl --kubeconfig "$work/kubeconfig" "$@"; }
ready_nodes="$(k get nodes --no-headers | grep -c ' Ready ')"
[ "$ready_nodes" = "$nodes" ] || { echo "only $ready_nodes of $nodes Nodes ready" >&2; exit 1; }

start="$(date +%s.%N)"
k create deployment bench --image=registry.k8s.io/pause:3.10 --replicas="$pods" >/dev/null
while :; do
  available="$(k get deployment bench -o 'jsonpath={.status.availableReplicas}')"
  [ "${available:-0}" -ge "$pods" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.5
done
end="$(date +%s.%N)"
seconds="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
running="$(k get pods --field-selector=status.phase=Running --no-headers | wc -l)"
[ "$running" = "$pods" ] || { echo "$running of $pods Pods Running" >&2; exit 1; }
spread="$(k get pods -o 'jsonpath={range .items[*]}{.spec.nodeName}{"\n"}{end}' | sort | uniq -c | awk 'NR == 1 { min = $1; max = $1 } { if ($1 < min) min = $1; if ($1 > max) max = $1 } END { printf "%d to %d Pods per Node", min, max }')"
peak_kib="$(awk '/VmHWM/ { print $2 }' "/proc/$server/status")"
peak_bytes=$((peak_kib * 1024))
rate="$(awk -v n="$pods" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')"
kwok_seconds="$(awk -v n="$pods" 'BEGIN { printf "%.0f", n / 20 }')"
note="run.sh $pods Pods, $nodes Nodes, one Deployment, memory storage, release build; $spread; load average $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
echo "$pods Pods Running on $nodes Nodes in $seconds s ($rate Pods/s); peak RSS $((peak_kib / 1024)) MiB; $spread"

record_result nodes "nodes.$pods pods running on $nodes nodes vs KWOK" \
  "kapi serve --nodes $nodes: $pods Pods of a Deployment scheduled and Running (wall)" \
  "$seconds" s "KWOK's documented 20 Pods/s" "$kwok_seconds" "ratio <= 1" "$note"
record_result nodes "nodes.$pods pods running on $nodes nodes rate vs KWOK" \
  "kapi serve --nodes $nodes: Pods scheduled and Running per second" \
  "$rate" Pods/s "KWOK's documented 20 Pods/s" 20 "ratio >= 1" "$note"
record_result nodes "nodes.$pods pods running on $nodes nodes peak memory" \
  "kapi serve --nodes $nodes with $pods Running Pods: peak resident memory (server and controllers)" \
  "$peak_bytes" B "" "" "" "$note"
