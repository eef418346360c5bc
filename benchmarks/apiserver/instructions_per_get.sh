#!/usr/bin/env bash
# Instructions (callgrind) a kapi serve process executes in a run that starts it, creates
# 20 ConfigMaps and GETs them K times over one keep-alive connection (JSON, or protobuf
# answers with ENC=protobuf), then stops it. A run with K=1000 minus one with K=0, over
# 1000, is the cost of one GET, independent of the machine's load (timing is not: on a
# shared 2-core machine request rates vary by 30% from run to run). KEEP=FILE keeps the
# callgrind output for callgrind_annotate. Needs valgrind.
# LIST=M: M ConfigMaps instead, and each request GETs the collection with ?limit=500 (the
# list row of run.sh). ETCD_SERVERS=URL: kapi serve on that etcd (empty it first) instead
# of in memory. APPLY=1: each request is instead run.sh's server-side apply of one of the 20
# ConfigMaps (fieldManager=bench, force=true, a new data value each time).
# Usage: benchmarks/apiserver/instructions_per_get.sh KAPI_BINARY K [json|protobuf]
set -euo pipefail
kapi="$1"; k="$2"; enc="${3:-json}"; list="${LIST:-0}"; apply="${APPLY:-0}"
storage=(); [ -n "${ETCD_SERVERS:-}" ] && storage=(--etcd-servers "$ETCD_SERVERS")
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$kapi" serve --insecure-http --controllers=-serviceaccount --listen "127.0.0.1:$port" --kubeconfig "$work/kubeconfig" "${storage[@]}" > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.5; done
python3 - "$port" "$k" "$enc" "$list" "$apply" <<'PY'
import http.client, json, sys
port, k, enc, listed, apply = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
c = http.client.HTTPConnection("127.0.0.1", port)
def req(m, p, body=None, ctype="application/json"):
    h = {"Content-Type": ctype}
    if enc == "protobuf": h["Accept"] = "application/vnd.kubernetes.protobuf"
    c.request(m, p, body=json.dumps(body) if body else None, headers=h)
    r = c.getresponse(); r.read(); return r.status
assert req("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "bench"}}) == 201
for i in range(listed or 20):
    assert req("POST", "/api/v1/namespaces/bench/configmaps", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"obj-{i}"}, "data": {"k": "v" * 100}}) == 201
for i in range(k):
    if apply:
        name = f"obj-{i % 20}"
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"key": f"a{i}"}}
        assert req("PATCH", f"/api/v1/namespaces/bench/configmaps/{name}?fieldManager=bench&force=true", body, "application/apply-patch+yaml") == 200
        continue
    path = "?limit=500" if listed else f"/obj-{i % 20}"
    assert req("GET", f"/api/v1/namespaces/bench/configmaps{path}") == 200
PY
kill -TERM $pid; wait $pid || true
awk '/^summary:|^totals:/ {print $2; exit}' "$work/cg.out"
[ -n "${KEEP:-}" ] && cp "$work/cg.out" "$KEEP"; rm -rf "$work"
