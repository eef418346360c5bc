#!/usr/bin/env bash
# Requests per second and CPU per request of `kapi serve` (memory, redb, etcd) beside the
# real kube-apiserver of the oracle (issue 41; v1.37.2, the default release), both over TLS with one bearer token, keep-alive
# connections: create, get (quorum, and resourceVersion=0 from the watch cache), list
# of 500, merge patch, server-side apply and delete of ConfigMaps, in JSON and in
# protobuf, driven by wrk (Debian's package) with ops.lua; watch fan-out (watch_fanout.py:
# WATCHERS watches, one writer); resident memory after loading LOAD_CMS ConfigMaps and
# LOAD_PODS Pods (load.py); time from start to /readyz ok; and etcd's own ceiling (the
# storage_throughput example, when STORAGE_THROUGHPUT names its binary, and etcdctl
# check perf when ETCD_CEILING is set).
#
# Usage: benchmarks/apiserver/run.sh KAPI_BINARY [N] [CLIENTS] [SECONDS] [WATCHERS] [WATCH_EVENTS]
# KAPI_BINARY: cargo build --release -p kapi. N (default 1000) ConfigMaps: the slower
# server's create and delete must finish them within SECONDS (wrk runs for its whole
# duration, and stops a create's thread when its share is done), else later rows miss
# objects and are not recorded.
# BACKENDS (default "memory redb etcd") and ENCODINGS (default "json protobuf") select.
# ETCD: the etcd binary (default oracle/bin/1.37/etcd, kube-apiserver's release line 3.7,
# when built; else the etcd on PATH). KUBE_APISERVER: the peer (default
# oracle/bin/1.37/kube-apiserver when built; "none" to leave it out). On etcd, kapi serve and
# kube-apiserver each run on their own etcd of that build with a fresh data directory,
# and every row is measured on one, then on the other, before the next row.
# LOAD_CMS (default 10000), LOAD_PODS (default 1000): the memory phase's objects.
# EXTRAS=0 runs the request rows alone (no watch fan-out, memory or start phase): a
# before/after comparison of a request's CPU in a few minutes. OPS (default "create get
# get0 list patch apply delete") selects request rows; OPS= runs none of them (the watch
# fan-out, memory and start phases alone).
#
# Each figure is also appended to benchmarks/results/apiserver.jsonl (see
# benchmarks/results/README.md): rates and CPU seconds per 1,000 requests (utime+stime
# of the server process from /proc/PID/stat, before and after the row; etcd's own CPU
# is in neither) beside kube-apiserver's (targets: rate ≥ 1.5×, CPU ≤ 0.3×, memory
# ≤ 0.25×, start ≤ 0.05× in memory and ≤ 0.2× on etcd), and the rates beside
# Rusternetes' where issue 17 measured it (a fixed figure, not measured in the run;
# targets ≥ 2× on etcd, ≥ 10× in memory).
set -euo pipefail
kapi="$1"; n="${2:-1000}"; clients="${3:-4}"; secs="${4:-5}"
watchers="${5:-100}"; watch_events="${6:-500}"
backends="${BACKENDS:-memory redb etcd}"; encodings="${ENCODINGS:-json protobuf}"
load_cms="${LOAD_CMS:-10000}"; load_pods="${LOAD_PODS:-1000}"; extras="${EXTRAS:-1}"
here="$(cd "$(dirname "$0")" && pwd)"
# The oracle of the release kapi is built for by default (oracle/build.sh).
oracle="$here/../../oracle/bin/1.37"
etcd_bin="${ETCD:-$([ -x "$oracle/etcd" ] && echo "$oracle/etcd" || command -v etcd || true)}"
kas_bin="${KUBE_APISERVER:-$([ -x "$oracle/kube-apiserver" ] && echo "$oracle/kube-apiserver" || true)}"
[ "$kas_bin" = none ] && kas_bin=""
# shellcheck source=../results.sh
source "$here/../results.sh"
# Without wrk every row would fail after the servers started; say so before starting them.
command -v wrk >/dev/null || { echo "run.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 1; }

load() { cut -d' ' -f1-3 /proc/loadavg; }
wire() { [ "$enc" = json ] && echo JSON || echo protobuf; }
etcd_version() { "$etcd_bin" --version 2>/dev/null | awk '/etcd Version/ {print $3}'; }
# oracle/build.sh links kube-apiserver without Kubernetes' version stamp (its --version
# says v0.0.0-master): the oracle's binary is the k8s.io/kubernetes its 1.37 module pins.
kas_version() {
  local v; v="$("$kas_bin" --version 2>/dev/null | awk '{print $2}')"
  if [[ "$v" == v0.0.0-* && "$kas_bin" == "$oracle/kube-apiserver" ]]; then
    v="$(awk '$1 == "k8s.io/kubernetes" { print $2; exit }' "$here/../../oracle/go.1.37.mod")"
  fi
  echo "$v"
}

# op_name OP: the operation as the tables name it.
op_name() {
  case "$1" in
    create) echo "create" ;; get) echo "get (quorum)" ;; get0) echo "get resourceVersion=0" ;;
    list) echo "list of 500" ;; patch) echo "merge patch" ;; apply) echo "server-side apply" ;;
    delete) echo "delete" ;;
  esac
}

# record_rusternetes OP RATE NOTE: kapi's rate beside Rusternetes' (issue 17: create,
# get, list, patch and delete on Debian's etcd 3.4, 2,000 ConfigMaps, 4 clients).
record_rusternetes() {
  local peer_value="" target=""
  case "$1" in
    create) peer_value=875 ;; get) peer_value=3228 ;; list) peer_value=79 ;;
    patch) peer_value=906 ;; delete) peer_value=1832 ;;
  esac
  case "$backend" in
    etcd) [ -n "$peer_value" ] && target="ratio >= 2" ;;
    memory) [ -n "$peer_value" ] && target="ratio >= 10" ;;
  esac
  local name; name="$(op_name "$1")"
  record_result apiserver "apiserver.$backend/$name $(wire)${peer_value:+ vs Rusternetes}" \
    "kapi serve on $backend: $name, $(wire), requests per second" "$2" req/s \
    "$([ -n "$peer_value" ] && echo "Rusternetes on etcd")" "$peer_value" "$target" "$3"
}

work="$(mktemp -d)"
pids=()
# Servers before their etcds (newest first), all signalled before any is waited for:
# kube-apiserver does not end while it waits for a stopped etcd.
cleanup() {
  local p i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  # kube-apiserver 1.37 can keep retrying its stopped etcd after SIGTERM: 10 s, then KILL.
  for p in "${pids[@]:-}"; do
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap "exit 1" TERM INT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The credentials both servers are started with and every client uses: a CA, a serving
# certificate for 127.0.0.1, a bearer token in system:masters, a service-account key.
token="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=bench-ca \
  -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout "$work/server.key" \
  -out "$work/server.csr" 2>/dev/null
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial \
  -days 1 -extfile <(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost') -out "$work/server.crt" 2>/dev/null
openssl genrsa -out "$work/sa.key" 2048 2>/dev/null
openssl rsa -in "$work/sa.key" -pubout -out "$work/sa.pub" 2>/dev/null
printf '%s,bench-admin,bench-admin,"system:masters"\n' "$token" > "$work/tokens.csv"
export TOKEN="$token" CACERT="$work/ca.crt"
tls=(--tls-cert-file "$work/server.crt" --tls-private-key-file "$work/server.key" --token-auth-file "$work/tokens.csv")
api() { # METHOD URL [BODY]
  curl -sf --cacert "$work/ca.crt" -H "Authorization: Bearer $token" -X "$1" \
    -H 'Content-Type: application/json' ${3:+-d "$3"} "$2"
}

# wait_ready URL PID: waits for /readyz ok; the seconds since START_NS.
wait_ready() {
  for _ in $(seq 6000); do
    if curl -sf --cacert "$work/ca.crt" -H "Authorization: Bearer $token" "$1/readyz" >/dev/null 2>&1; then
      awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
      return
    fi
    kill -0 "$2" 2>/dev/null || { echo "server $2 exited" >&2; return 1; }
    sleep 0.01
  done
  echo "server $2 not ready in 60 s" >&2; return 1
}

# start_etcd NAME: a fresh etcd of the chosen build; sets etcd_url.
start_etcd() {
  local cp pp; cp="$(port)"; pp="$(port)"
  "$etcd_bin" --name "$1" --data-dir "$work/etcd-$1" --listen-client-urls "http://127.0.0.1:$cp" \
    --advertise-client-urls "http://127.0.0.1:$cp" --listen-peer-urls "http://127.0.0.1:$pp" \
    --initial-advertise-peer-urls "http://127.0.0.1:$pp" --initial-cluster "$1=http://127.0.0.1:$pp" \
    > "$work/etcd-$1.log" 2>&1 &
  pids+=($!)
  etcd_url="http://127.0.0.1:$cp"
  for _ in $(seq 100); do curl -sf "$etcd_url/health" >/dev/null && return; sleep 0.1; done
  echo "etcd $1 did not start: $(tail -5 "$work/etcd-$1.log")" >&2; return 1
}

# start_kapi NAME FLAGS...: sets url[NAME], pid[NAME], started[NAME] (seconds to ready).
declare -A url pid started
start_kapi() {
  local name="$1" p; shift; p="$(port)"
  start_ns="$(date +%s%N)"
  # Without the serviceaccount controller kapi serve otherwise runs: kube-apiserver runs
  # alone here, and prepare makes the account.
  "$kapi" serve --listen "127.0.0.1:$p" "${tls[@]}" --kubeconfig "$work/kubeconfig-$name" \
    --controllers=-serviceaccount "$@" \
    > "$work/$name.log" 2>&1 &
  pids+=($!); pid[$name]=$!; url[$name]="https://127.0.0.1:$p"
  started[$name]="$(wait_ready "${url[$name]}" "${pid[$name]}")"
}

# start_kas NAME ETCD_URL: kube-apiserver as envtest runs it (no controllers besides
# its own), with the same certificate and tokens.
start_kas() {
  local name="$1" p; p="$(port)"
  mkdir -p "$work/$name-certs"
  start_ns="$(date +%s%N)"
  # --endpoint-reconciler-type none: kube-apiserver 1.37 refuses a loopback advertise
  # address with its default (lease) reconciler.
  "$kas_bin" --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$p" \
    --endpoint-reconciler-type none \
    "${tls[@]}" --cert-dir "$work/$name-certs" --authorization-mode RBAC \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$work/sa.pub" --service-account-signing-key-file "$work/sa.key" \
    --service-cluster-ip-range 10.96.0.0/16 --etcd-servers "$2" > "$work/$name.log" 2>&1 &
  pids+=($!); pid[$name]=$!; url[$name]="https://127.0.0.1:$p"
  started[$name]="$(wait_ready "${url[$name]}" "${pid[$name]}")"
}

stop() { kill "${pid[$1]}" 2>/dev/null || true; wait "${pid[$1]}" 2>/dev/null || true; }

# prepare NAME: the namespace and its default account (which kube-apiserver's
# ServiceAccount admission wants for a Pod; no controller creates it here).
prepare() {
  api POST "${url[$1]}/api/v1/namespaces" '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}}' >/dev/null
  api POST "${url[$1]}/api/v1/namespaces/bench/serviceaccounts" \
    '{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}' >/dev/null
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# phase NAME OP [OBJECTS]: one wrk run against server NAME; prints its table row and sets
# rate, cpu (CPU seconds per 1,000 requests), errors and note.
phase() {
  local name="$1" op="$2" objects="${3:-$n}" out before after requests hz
  hz="$(getconf CLK_TCK)"
  before="$(cpu_ticks "${pid[$name]}")"
  out="$(OP="$op" ENC="$enc" N="$objects" THREADS="$clients" wrk -t"$clients" -c"$clients" \
    -d"${secs}s" --latency -s "$here/ops.lua" "${url[$name]}" 2>&1)"
  after="$(cpu_ticks "${pid[$name]}")"
  rate="$(awk '/Requests\/sec/ {printf "%.0f", $2}' <<<"$out")"
  if [ "$op" = create ] || [ "$op" = delete ]; then
    # These touch each object once and their threads stop when done, but wrk divides by
    # the whole run: the rate is the clients over the mean latency (Little's law for a
    # closed loop of $clients connections, each always with one request outstanding).
    rate="$(awk -v c="$clients" '$1 == "Latency" && $2 ~ /^[0-9]/ {
        v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        s = (u == "us") ? v / 1e6 : (u == "ms") ? v / 1e3 : v;
        printf "%.0f", c / s }' <<<"$out")"
  fi
  requests="$(awk '/requests in/ {print $1}' <<<"$out")"
  cpu="$(awk -v d="$((after - before))" -v hz="$hz" -v r="${requests:-0}" \
    'BEGIN { if (r > 0) printf "%.4f", d / hz / r * 1000; else print "?" }')"
  local p50 p99
  p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
  errors="$(awk '/Non-2xx/ {print $5}' <<<"$out")"; errors="${errors:-0}"
  note="run.sh $objects objects, $clients clients, $secs s, TLS and a token; p50 $p50, p99 $p99; load average $(load)"
  printf '| %s | %s | %s | %s | %s/s | %s | %s | %s | %s |\n' \
    "$name" "$backend" "$enc" "$op" "$rate" "$cpu" "$p50" "$p99" "$errors"
}

echo "| server | storage | encoding | operation | rate | CPU s/1000 req | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---:|---:|---:|---:|---:|"
fanout=()
read -ra ops <<<"${OPS-create get get0 list patch apply delete}"

# kapi serve alone (memory, redb): its rates, beside Rusternetes' where there is one.
run_alone() {
  for enc in $encodings; do
    for op in "${ops[@]}"; do
      phase kapi "$op"
      [ "$errors" = 0 ] && record_rusternetes "$op" "$rate" "$note"
    done
  done
  if [ "$extras" != 0 ]; then
    for enc in $encodings; do
      fanout+=("| kapi | $backend | $enc | $(python3 "$here/watch_fanout.py" "${url[kapi]}" "$watchers" "$watch_events" "$enc") |")
      api DELETE "${url[kapi]}/api/v1/namespaces/bench/configmaps" >/dev/null
    done
  fi
  stop kapi
}

case " $backends " in *" memory "*)
  backend=memory; start_kapi kapi; memory_start="${started[kapi]}"; prepare kapi; run_alone;; esac
case " $backends " in *" redb "*)
  backend=redb; start_kapi kapi --data-dir "$work/data"; prepare kapi; run_alone;; esac

# record_pair WHAT TITLE UNIT OURS PEER TARGET NOTE: kapi's figure beside kube-apiserver's.
record_pair() {
  record_result apiserver "apiserver.$1 vs kube-apiserver" "$2" "$4" "$3" \
    "kube-apiserver $(kas_version) on etcd $(etcd_version)" "$5" "$6" "$7"
}

if [[ " $backends " == *" etcd "* ]] && [ -n "$etcd_bin" ]; then
  backend=etcd
  start_etcd ours; ours_etcd="$etcd_url"
  start_kapi kapi --etcd-servers "$ours_etcd"
  if [ -n "$kas_bin" ]; then
    start_etcd peer; peer_etcd="$etcd_url"
    start_kas kas "$peer_etcd"; prepare kas
    servers=(kapi kas)
  else
    servers=(kapi)
  fi
  prepare kapi
  declare -A rates cpus
  for enc in $encodings; do
    for op in "${ops[@]}"; do
      for s in "${servers[@]}"; do
        phase "$s" "$op"
        if [ "$errors" = 0 ]; then rates[$s]="$rate"; cpus[$s]="$cpu"; else rates[$s]=""; cpus[$s]=""; fi
      done
      [ -n "${rates[kapi]}" ] && record_rusternetes "$op" "${rates[kapi]}" "$note"
      if [ -n "$kas_bin" ] && [ -n "${rates[kapi]}" ] && [ -n "${rates[kas]}" ]; then
        name="$(op_name "$op")"
        record_pair "etcd/$name $(wire)" "kapi serve on etcd: $name, $(wire), requests per second" \
          req/s "${rates[kapi]}" "${rates[kas]}" "ratio >= 1.5" "$note"
        record_pair "etcd/$name $(wire) CPU" \
          "kapi serve on etcd: $name, $(wire), CPU seconds per 1,000 requests (server process)" \
          s "${cpus[kapi]}" "${cpus[kas]}" "ratio <= 0.3" "$note"
      fi
    done
  done
  if [ "$extras" != 0 ]; then
    for enc in $encodings; do
      declare -A delivered=() fanout_cpu=()
      for s in "${servers[@]}"; do
        # The server's CPU seconds per 1,000 events delivered: the Python watchers share
        # the machine, so the rate is a floor of what a server delivers, while its own
        # CPU per event moves little with that. watch_fanout.py reads the server's CPU
        # from the moment every watch is established to the last event read, so the
        # figure is the writes and their delivery, without the watches' TLS handshakes
        # (set-up paid once per watcher, not per event).
        line="$(SERVER_PID="${pid[$s]}" python3 "$here/watch_fanout.py" "${url[$s]}" "$watchers" "$watch_events" "$enc")"
        ticks="$(sed -n 's/.*server_cpu_ticks=\([0-9]*\).*/\1/p' <<<"$line")"
        fanout_cpu[$s]="$(awk -v d="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$((watchers * watch_events))" \
          'BEGIN { printf "%.4f", d / hz / n * 1000 }')"
        fanout+=("| $s | etcd | $enc | $line cpu_per_1000_events=${fanout_cpu[$s]}s |")
        delivered[$s]="$(sed -n 's/.*delivered=\([0-9]*\).*/\1/p' <<<"$line")"
        api DELETE "${url[$s]}/api/v1/namespaces/bench/configmaps" >/dev/null
      done
      if [ -n "$kas_bin" ]; then
        note="watch_fanout.py $watchers watchers, $watch_events events each, TLS and a token; CPU from every watch established to the last event read; load average $(load)"
        record_pair "etcd/watch fan-out $(wire)" \
          "kapi serve on etcd: watch fan-out to $watchers watchers, $(wire), events delivered per second" \
          events/s "${delivered[kapi]}" "${delivered[kas]}" "ratio >= 1.5" "$note"
        record_pair "etcd/watch fan-out $(wire) CPU" \
          "kapi serve on etcd: watch fan-out to $watchers watchers, $(wire), CPU seconds per 1,000 events delivered (server process)" \
          s "${fanout_cpu[kapi]}" "${fanout_cpu[kas]}" "ratio <= 0.3" "$note"
      fi
    done

    # Resident memory after loading LOAD_CMS ConfigMaps and LOAD_PODS Pods into each.
    declare -A rss
    enc=json
    for s in "${servers[@]}"; do
      took="$(python3 "$here/load.py" "${url[$s]}" "$load_cms" "$load_pods" "$clients")"
      sleep 2
      rss[$s]="$(awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/${pid[$s]}/status")"
      echo "resident memory of $s after $load_cms ConfigMaps and $load_pods Pods (loaded in $took s): ${rss[$s]} MiB"
    done
    if [ -n "$kas_bin" ]; then
      record_pair "etcd/resident memory" \
        "kapi serve on etcd: resident memory after $load_cms ConfigMaps and $load_pods Pods" \
        MiB "${rss[kapi]}" "${rss[kas]}" "ratio <= 0.25" "VmRSS of the server process; load average $(load)"
    fi

    if [ -n "${ETCD_CEILING:-}" ]; then
      echo
      echo "etcd's own ceiling (etcdctl check perf --load=s, a minute), kapi serve's etcd:"
      ETCDCTL_API=3 etcdctl --endpoints "$ours_etcd" check perf --load=s 2>&1 | tr '\r' '\n' | grep -E '^(PASS|FAIL)' || true
    fi
    if [ -n "${STORAGE_THROUGHPUT:-}" ]; then
      echo "etcd's own ceiling, same etcd, $clients clients (storage_throughput):"
      "$STORAGE_THROUGHPUT" etcd "$ours_etcd" 4000 "$clients"
    fi

    # Time from start to /readyz ok, each on a fresh etcd (kube-apiserver's measured at its
    # start above, kapi serve's again now, after it, so that neither starts beside the
    # other's load phase).
    stop kapi
    start_etcd fresh
    start_kapi kapi --etcd-servers "$etcd_url"; etcd_start="${started[kapi]}"; stop kapi
    start_kapi kapi; [ -z "${memory_start:-}" ] && memory_start="${started[kapi]}"; stop kapi
    echo
    echo "start to /readyz: kapi serve in memory ${memory_start} s, on etcd ${etcd_start} s${kas_bin:+, kube-apiserver ${started[kas]} s}"
    if [ -n "$kas_bin" ]; then
      record_pair "start to readyz in memory" "kapi serve in memory: start to /readyz ok (kube-apiserver on etcd)" \
        s "$memory_start" "${started[kas]}" "ratio <= 0.05" "fresh etcd $(etcd_version) for each server on etcd; load average $(load)"
      record_pair "start to readyz on etcd" "kapi serve on etcd: start to /readyz ok" \
        s "$etcd_start" "${started[kas]}" "ratio <= 0.2" "fresh etcd $(etcd_version) for each; load average $(load)"
    fi
  fi
fi
echo
echo "Watch fan-out ($watchers watchers, one writer, $watch_events events each):"
printf '%s\n' "${fanout[@]}"
