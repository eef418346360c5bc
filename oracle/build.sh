#!/usr/bin/env bash
# Builds the Go oracle's programs into oracle/bin, from the module proxy, reusing Go's
# module and build caches (GOMODCACHE, GOCACHE) when they are there:
#
#   bin/k8s-oracle        our program: Go's fuzzer, conversions, defaulting and validation
#                         answering our tests (cmd/k8s-oracle)
#   bin/client-check      client-go v0.36.3 against a server (cmd/client-check)
#   bin/manager-check     controller-runtime v0.24.1 against a server (cmd/manager-check)
#   bin/kube-apiserver    the real kube-apiserver v1.36.3 (k8s.io/kubernetes/cmd/kube-apiserver)
#   bin/etcd              etcd v3.6.8, kube-apiserver's own release line (cmd/etcd; Debian's
#                         3.4.23 lacks the watch progress requests kube-apiserver 1.36 needs)
#   bin/kubectl-convert   the real kubectl-convert plugin v1.36.3
#
# Usage: oracle/build.sh [--only k8s-oracle]   (from anywhere)
# Needs Go 1.26 and the Go module proxy; nothing of this ships in the Rust crates.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v go >/dev/null 2>&1; then
    echo "oracle/build.sh: no Go toolchain (go) on PATH; install Go 1.26 to build the oracle" >&2
    exit 3
fi

only=""
if [ "${1:-}" = "--only" ]; then
    only="${2:-}"
fi

mkdir -p bin
# -trimpath and no VCS stamp: the binaries depend on go.mod/go.sum and the sources only.
flags=(-trimpath -buildvcs=false)
start=$(date +%s)
if [ -z "$only" ] || [ "$only" = "k8s-oracle" ]; then
    go build "${flags[@]}" -o bin/k8s-oracle ./cmd/k8s-oracle
fi
if [ -z "$only" ] || [ "$only" = "client-check" ]; then
    go build "${flags[@]}" -o bin/client-check ./cmd/client-check
fi
if [ -z "$only" ] || [ "$only" = "manager-check" ]; then
    go build "${flags[@]}" -o bin/manager-check ./cmd/manager-check
fi
if [ -z "$only" ] || [ "$only" = "kubectl-convert" ]; then
    go build "${flags[@]}" -o bin/kubectl-convert k8s.io/kubernetes/cmd/kubectl-convert
fi
if [ -z "$only" ] || [ "$only" = "kube-apiserver" ]; then
    go build "${flags[@]}" -o bin/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
fi
if [ -z "$only" ] || [ "$only" = "etcd" ]; then
    go build "${flags[@]}" -o bin/etcd ./cmd/etcd
fi
echo "oracle/build.sh: built $(ls bin | tr '\n' ' ')in $(( $(date +%s) - start )) s" >&2
