#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on the stable
# toolchain (no nightly, no cargo-fuzz): the same LLVM SanitizerCoverage passes cargo-fuzz
# turns on, asked for through stable `-C passes` / `-C llvm-args` flags. No AddressSanitizer:
# the code under test is safe Rust (`unsafe_code = "forbid"`), so memory errors are not
# what is hunted; panics, overflows (overflow checks on), debug assertions, stack
# overflows, timeouts and excessive allocation are.
#
# Usage: fuzz/build.sh [cargo build args, e.g. --bin quantity]
# The binaries land in fuzz/target/<triple>/fuzz/<target>.
set -euo pipefail
cd "$(dirname "$0")"

triple="$(rustc -vV | sed -n 's/^host: //p')"
export RUSTFLAGS="${RUSTFLAGS:-} \
 -C passes=sancov-module \
 -C llvm-args=-sanitizer-coverage-level=4 \
 -C llvm-args=-sanitizer-coverage-inline-8bit-counters \
 -C llvm-args=-sanitizer-coverage-pc-table \
 -C llvm-args=-sanitizer-coverage-trace-compares \
 -C debug-assertions -C overflow-checks \
 --cfg fuzzing"
# --target keeps the flags off build scripts and proc macros (they run on the host and
# need no coverage), exactly as cargo-fuzz does.
exec cargo build --profile fuzz --target "$triple" "$@"
