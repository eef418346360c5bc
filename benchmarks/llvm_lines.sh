#!/usr/bin/env bash
# Where k8s-types' compile time goes: the LLVM IR lines of its library (cargo-llvm-lines:
# the IR rustc hands to LLVM, before LLVM's own passes), summed per code family (JSON
# decode and encode, protobuf, clone, Debug, conversions, defaulting, validation, the
# Scheme's shims, ...) and the largest functions with their families. IR lines are
# deterministic, unlike build times on a shared machine, so a change to the generated
# code is measured by this table before and after (issue 44).
#
# Usage: benchmarks/llvm_lines.sh [--write]
# Needs cargo-llvm-lines (`cargo install cargo-llvm-lines`). Builds k8s-types with its
# default features, release profile (PROFILE=dev for the debug profile), in the
# workspace's target directory. Prints the Markdown tables; --write also puts them between
# the llvm-lines markers of BENCHMARKS.md. RAW=FILE keeps cargo-llvm-lines' whole listing;
# LISTING=FILE makes the tables from such a listing instead of building.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile="${PROFILE:-release}"
command -v cargo-llvm-lines > /dev/null || {
    echo "cargo-llvm-lines is not installed: cargo install cargo-llvm-lines" >&2
    exit 1
}
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [ -n "${LISTING:-}" ]; then
    cp "$LISTING" "$scratch/raw"
else
    (cd "$root" && cargo llvm-lines --quiet --profile "$profile" -p k8s-types --lib) > "$scratch/raw"
fi
if [ -n "${RAW:-}" ]; then cp "$scratch/raw" "$RAW"; fi

# One function per line of cargo-llvm-lines: "LINES (..%, ..%) COPIES (..%, ..%) NAME".
# The family is the first pattern the name matches, so a trait of ours implemented for a
# standard type (`<Option<T> as proto::Field>::merge_from`) counts as ours.
awk -v profile="$profile" -v commit="$(cd "$root" && git rev-parse --short=12 HEAD)" \
    -v date="$(date -u '+%Y-%m-%d %H:%M')" -v rustc="$(rustc --version | cut -d' ' -f2)" '
function family(name) {
    if (name ~ /runtime::registration|TypeShims|typed_json|runtime::object|runtime::assign|core::any::Any|__ctor|inventory::|runtime::scheme/)
        return "Scheme shims (registration, `dyn Object` casts, link-time registration)"
    if (name ~ /Convert<|conversion::|k8s_types::conversions|InternalForm/)
        return "Conversions (hubs, internal forms, the converter)"
    if (name ~ /k8s_types::defaults|defaulting|Defaulter/)
        return "Defaulting"
    if (name ~ /k8s_types::validation|validators|util::validation|Validate/)
        return "Validation"
    if (name ~ /proto::/)
        return "Protobuf decode and encode"
    if (name ~ /json_reader|ReadJson|ReadElements|serde_json::de|serde_core::de|Deserialize|Visitor/)
        return "JSON decode"
    if (name ~ /json::writer|WriteJson|serde_json::ser|serde_core::ser|Serialize/)
        return "JSON encode"
    if (name ~ /Clone>::clone|ConvertVec|to_vec|list_field::clone/)
        return "Clone"
    if (name ~ /fmt::Debug|fmt::builders|list_field::debug/)
        return "Debug"
    if (name ~ /Default>::default|unwrap_or_default/)
        return "Default"
    if (name ~ /drop_in_place|Drop>::drop/)
        return "Drop glue"
    if (name ~ /cmp::/)
        return "Comparisons (PartialEq, Ord)"
    if (name ~ /^<?(core|alloc|std|hashbrown)::|^<T as |^<&/)
        return "Standard library generics, caller not known"
    return "Other (named functions of k8s-types and apimachinery)"
}
NR > 3 && /^ *[0-9]/ {
    lines = $1
    copies = $4
    name = $0
    sub(/^ *[0-9]+ \([^)]*\) +[0-9]+ \([^)]*\) +/, "", name)
    f = family(name)
    total += lines
    flines[f] += lines
    fcopies[f] += copies
    fns[f]++
    if (n < 15) { n++; top_lines[n] = lines; top_copies[n] = copies; top_name[n] = name; top_family[n] = f }
}
END {
    printf "LLVM IR lines of `k8s-types` (default features, %s profile), %s UTC, %s, rustc %s, `benchmarks/llvm_lines.sh`: %d lines in total.\n\n", profile, date, commit, rustc, total
    print "| Code family | IR lines | Share | Copies | Functions |"
    print "|---|---:|---:|---:|---:|"
    fflush()
    cmd = "sort -t \"\t\" -k2,2nr"
    for (f in flines) printf "%s\t%d\t%d\t%d\n", f, flines[f], fcopies[f], fns[f] | cmd
    close(cmd)
    print ""
    print "| Largest functions (generic ones summed over their copies) | IR lines | Copies | Family |"
    print "|---|---:|---:|---|"
    for (i = 1; i <= n; i++) {
        shown = top_name[i]
        gsub(/\|/, "\\|", shown)
        printf "| `%s` | %d | %d | %s |\n", shown, top_lines[i], top_copies[i], top_family[i]
    }
}' "$scratch/raw" > "$scratch/awk"

# The family rows arrive sorted from `sort`; format them with the total for the share.
total="$(sed -n '1s/.*: \([0-9]*\) lines in total.*/\1/p' "$scratch/awk")"
awk -v total="$total" -F '\t' '
    NF == 4 { printf "| %s | %d | %.1f%% | %d | %d |\n", $1, $2, 100 * $2 / total, $3, $4; next }
    { print }' "$scratch/awk" > "$scratch/table"
cat "$scratch/table"

if [ "${1:-}" = "--write" ]; then
    doc="$root/BENCHMARKS.md"
    begin='<!-- llvm-lines:begin'
    end='<!-- llvm-lines:end -->'
    grep -q "^$begin" "$doc" && grep -q "^$end" "$doc" || {
        echo "BENCHMARKS.md has no llvm-lines markers" >&2
        exit 1
    }
    awk -v table="$scratch/table" -v begin="$begin" -v end="$end" '
        index($0, begin) == 1 { print; while ((getline line < table) > 0) print line; skip = 1; next }
        $0 == end { skip = 0 }
        !skip { print }' "$doc" > "$scratch/doc"
    cp "$scratch/doc" "$doc"
fi
