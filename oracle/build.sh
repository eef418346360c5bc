#!/usr/bin/env bash
# Builds the Go oracle's programs for one Kubernetes release into oracle/bin/<release>,
# from the module proxy, reusing Go's module and build caches (GOMODCACHE, GOCACHE) when
# they are there (the versions are 1.37's; 1.36's in brackets):
#
#   k8s-oracle        our program: Go's fuzzer, conversions, defaulting and validation
#                     answering our tests (cmd/k8s-oracle)
#   client-check      client-go v0.37.2 [v0.36.3] against a server (cmd/client-check)
#   manager-check     controller-runtime v0.25.2 [v0.24.1] against a server (cmd/manager-check)
#   kube-apiserver    the real kube-apiserver v1.37.2 [v1.36.3] (k8s.io/kubernetes/cmd/kube-apiserver)
#   etcd              etcd v3.7.0 [v3.6.8], kube-apiserver's own release line (cmd/etcd; Debian's
#                     3.4.23 lacks the watch progress requests kube-apiserver needs)
#   kubectl-convert   the real kubectl-convert plugin v1.37.2 [v1.36.3]
#
# Usage: oracle/build.sh [--release 1.36] [--only k8s-oracle]   (from anywhere)
#
# Without --release: Kubernetes 1.37, the crates' default release (go.1.37.mod,
# go.1.37.sum: k8s.io/kubernetes v1.37.2, its staging modules v0.37.2) into bin/1.37/,
# with the build tag k8s_1_37 for code that differs between the releases
# (internal/cases/validate_check*.go: 1.37 runs the declarative rules outside the
# strategies). With --release 1.36: the same sources against Kubernetes 1.36.3 (go.mod, go.sum) into bin/1.36/. Each
# release has its own directory, so that moving the default never leaves one release's
# programs where the other's are looked for (oracle/binaries.rs).
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
case "${release:=1.37}" in
1.36) ;;
1.37) flags+=(-modfile=go.1.37.mod -tags=k8s_1_37) ;;
*) echo "oracle/build.sh: --release $release: 1.36 or 1.37" >&2; exit 2 ;;
esac
out="bin/$release"

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
