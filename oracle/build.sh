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
# Usage: oracle/build.sh [--release 1.37] [--only k8s-oracle]   (from anywhere)
#
# Without --release: Kubernetes 1.36 (go.mod, go.sum) into bin/. With --release 1.37: the
# same sources against Kubernetes 1.37.2 (go.1.37.mod, go.1.37.sum: k8s.io/kubernetes
# v1.37.2, its staging modules v0.37.2, controller-runtime v0.25.2, etcd v3.7.0, the line
# kube-apiserver 1.37 is built against) into bin/1.37/, with the build tag k8s_1_37 for
# code that differs between the releases (internal/cases/validate_check*.go: 1.37 runs
# the declarative rules outside the strategies).
# Needs Go 1.26 and the Go module proxy; nothing of this ships in the Rust crates.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v go >/dev/null 2>&1; then
    echo "oracle/build.sh: no Go toolchain (go) on PATH; install Go 1.26 to build the oracle" >&2
    exit 3
fi

only=""
release=""
while [ $# -gt 0 ]; do
    case "$1" in
    --only) only="${2:-}"; shift 2 ;;
    --release) release="${2:-}"; shift 2 ;;
    *) echo "oracle/build.sh: unknown argument $1 (--release R, --only NAME)" >&2; exit 2 ;;
    esac
done

# -trimpath and no VCS stamp: the binaries depend on the module file and the sources only.
flags=(-trimpath -buildvcs=false)
out=bin
case "$release" in
"" | 1.36) ;;
1.37)
    out=bin/1.37
    flags+=(-modfile=go.1.37.mod -tags=k8s_1_37)
    ;;
*) echo "oracle/build.sh: --release $release: 1.36 or 1.37" >&2; exit 2 ;;
esac

mkdir -p "$out"
start=$(date +%s)
for program in k8s-oracle client-check manager-check kubectl-convert kube-apiserver etcd; do
    if [ -n "$only" ] && [ "$only" != "$program" ]; then
        continue
    fi
    case "$program" in
    kubectl-convert | kube-apiserver) package="k8s.io/kubernetes/cmd/$program" ;;
    *) package="./cmd/$program" ;;
    esac
    go build "${flags[@]}" -o "$out/$program" "$package"
done
echo "oracle/build.sh: built $(cd "$out" && find . -maxdepth 1 -type f -printf '%f ')into $out in $(( $(date +%s) - start )) s" >&2
