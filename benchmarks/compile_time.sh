#!/usr/bin/env bash
# Clean release builds of our generated types (k8s-types, default features) and of
# k8s-openapi (feature "latest") on the same machine in one run: each through a
# throwaway crate that depends on it alone, with all its dependencies from an empty
# target directory (and, on request, the crate alone).
# Both sides build with the same cargo, profile and job count.
#
# Usage: benchmarks/compile_time.sh [scratch-dir]
# CRATE_ALONE=1 also times each crate alone after `cargo clean -p` (dependencies built).
# TYPED_ONLY=1 also times k8s-types without its `scheme` feature (typed only, issue 16):
# every group (`all-groups`), then `apps` (with `core`) alone, each for the default
# release (`default-release`: without a release feature k8s-types does not compile).
# The scratch directory (default: a fresh temporary one) holds the other target
# directories and is deleted at the end, since the build of k8s-types takes gigabytes.
# Each build's wall and CPU time, beside k8s-openapi's, is appended to
# benchmarks/results/compile_time.jsonl (see benchmarks/results/README.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=results.sh
source "$root/benchmarks/results.sh"
scratch="${1:-$(mktemp -d)}"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
export CARGO_INCREMENTAL=0
unset RUSTFLAGS

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# k8s-openapi is built through a throwaway crate that depends on it.
peer="$scratch/peer"
mkdir -p "$peer/src"
openapi_version="$(awk '/^k8s-openapi = /{ match($0, /"[0-9.]+"/); print substr($0, RSTART + 1, RLENGTH - 2) }' "$root/benchmarks/Cargo.toml")"
cat > "$peer/Cargo.toml" <<TOML
[package]
name = "k8s-openapi-compile-time"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
k8s-openapi = { version = "$openapi_version", features = ["latest"] }
TOML
: > "$peer/src/lib.rs"
(cd "$peer" && cargo fetch --quiet)

# The CPU time comes from GNU time (Debian's `time` package); without it, it is "?".
cpu_timer=()
if [ -x /usr/bin/time ]; then
    cpu_timer=(/usr/bin/time -f "%U %S" -o "$scratch/cpu")
fi
# cpu_of FILE: the user + system seconds `/usr/bin/time -f "%U %S"` wrote to FILE.
cpu_of() { awk '{ printf "%.1f", $1 + $2; found = 1 } END { if (!found) printf "?" }' "$1"; }

# time_build NAME CRATE MANIFEST TARGET_DIR: prints the build times in seconds, wall and
# CPU (the CPU time moves less with the load of a shared machine), and keeps them with the
# load average before and after in wall[NAME], cpu[NAME] and load[NAME] for the results.
declare -A wall cpu load
time_build() {
    local name="$1" crate="$2" manifest="$3" target="$4" t0 t1 t2 t3 load_before
    load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$name: load average before: $load_before"
    : > "$scratch/cpu"
    t0="$(now)"
    "${cpu_timer[@]}" \
        cargo build --quiet --release --manifest-path "$manifest" -p "$crate" --target-dir "$target"
    t1="$(now)"
    wall[$name]="$(elapsed "$t0" "$t1")"
    cpu[$name]="$(cpu_of "$scratch/cpu")"
    load[$name]="load average $load_before before the build, $(cut -d' ' -f1-3 /proc/loadavg) after"
    printf '%-12s  clean release build with dependencies %7ss (CPU %ss)\n' "$name" "${wall[$name]}" "${cpu[$name]}"
    if [ "${CRATE_ALONE:-0}" = 1 ]; then
        cargo clean --quiet --release --manifest-path "$manifest" -p "$crate" --target-dir "$target"
        t2="$(now)"
        cargo build --quiet --release --manifest-path "$manifest" -p "$crate" --target-dir "$target"
        t3="$(now)"
        printf '%-12s  crate alone %7ss\n' "$name" "$(elapsed "$t2" "$t3")"
    fi
}

# through_crate NAME DEPENDENCY: builds k8s-types through a throwaway crate whose only
# dependency is DEPENDENCY (a TOML value for `k8s-types`), with the benchmark crate's
# lock file: what a user's crate that asks for k8s-types so compiles, as the peer above.
# (Built as `-p k8s-types` inside the benchmark crate, apimachinery would get that
# crate's own default features, YAML and server-side apply among them, which k8s-types
# does not ask for.)
through_crate() {
    local name="$1" dependency="$2" dir="$scratch/$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "compile-time-$name"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
k8s-types = $dependency
TOML
    : > "$dir/src/lib.rs"
    cp "$root/benchmarks/Cargo.lock" "$dir/Cargo.lock"
    (cd "$dir" && cargo fetch --quiet)
    time_build "$name" k8s-types "$dir/Cargo.toml" "$scratch/target-$name"
    rm -rf "$scratch/target-$name"
}

echo "clean release builds on $(nproc) cores, $(cargo --version)"
through_crate "k8s-types" "{ path = \"$root/k8s-types\" }"
time_build "k8s-openapi" k8s-openapi "$peer/Cargo.toml" "$scratch/target-peer"

if [ "${TYPED_ONLY:-0}" = 1 ]; then
    through_crate "typed-only" "{ path = \"$root/k8s-types\", default-features = false, features = [\"all-groups\", \"default-release\"] }"
    through_crate "typed-apps" "{ path = \"$root/k8s-types\", default-features = false, features = [\"apps\", \"default-release\"] }"
fi

# record NAME TITLE TARGET: NAME's wall and CPU times beside k8s-openapi's, as results.
peer_name="k8s-openapi $openapi_version (latest)"
record() {
    local name="$1" title="$2" target="$3"
    record_result compile_time "compile_time.$name.release.wall" "Clean release build, $title (wall)" \
        "${wall[$name]}" s "$peer_name" "${wall[k8s-openapi]}" "$target" \
        "${load[$name]}; peer's ${load[k8s-openapi]}"
    record_result compile_time "compile_time.$name.release.cpu" "Clean release build, $title (CPU)" \
        "${cpu[$name]}" s "$peer_name" "${cpu[k8s-openapi]}" "$target" \
        "${load[$name]}; peer's ${load[k8s-openapi]}"
}
record k8s-types "k8s-types, default features" "ratio <= 1.0"
if [ "${TYPED_ONLY:-0}" = 1 ]; then
    record typed-only "k8s-types typed only, every group" "ratio <= 0.7"
    record typed-apps "k8s-types typed only, apps + core" "ratio <= 0.4"
fi
