# Sourced by the benchmark scripts: `record_result` appends one measured figure as a line
# of JSON to benchmarks/results/AREA.jsonl (the format: benchmarks/results/README.md),
# from which `cargo xtask bench-report` writes the table at the top of BENCHMARKS.md.
# RESULTS_DIR sends the rows elsewhere (a trial run that should not be recorded:
# RESULTS_DIR=/tmp/scratch). The commit and the machine are taken once, when sourced, so
# that edits made while a long run goes on do not mark its rows; "+dirty" means changes
# to tracked files other than the results and the report, which runs themselves change.
results_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
results_dir="${RESULTS_DIR:-$results_root/benchmarks/results}"
results_commit="$(git -C "$results_root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if ! git -C "$results_root" diff --quiet HEAD -- . ':(exclude)benchmarks/results' ':(exclude)BENCHMARKS.md' 2>/dev/null; then
    results_commit="$results_commit+dirty"
fi
results_source="$(realpath --relative-to="$results_root" "$0" 2>/dev/null || echo "${0##*/}")"
results_machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(( $(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1048576 )) GiB, $(rustc --version 2>/dev/null | cut -d' ' -f1-2), cargo jobs ${CARGO_BUILD_JOBS:-$(nproc)}"

# json_string TEXT: TEXT as a JSON string (the scripts' own texts: quotes and backslashes
# escaped, control characters dropped).
json_string() {
    local s="${1//\\/\\\\}"
    s="${s//\"/\\\"}"
    printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}

# json_number TEXT: TEXT when it is a number, else null (a figure the run could not take,
# such as the CPU time without GNU time, is "?").
json_number() {
    if [[ "$1" =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; then printf '%s' "$1"; else printf 'null'; fi
}

# record_result AREA METRIC TITLE OURS UNIT PEER PEER_VALUE TARGET NOTE
#   METRIC: a stable identifier (the newest row per METRIC is the current figure);
#   TITLE: what the table shows; OURS, PEER_VALUE: numbers in UNIT; PEER: the peer's name
#   ("" when the figure has none); TARGET: "ratio <= 1.0", "ours >= 5000" or "" (see the
#   README); NOTE: what else the reader needs (the load during the run).
# The ratio is OURS / PEER_VALUE. A row whose OURS is not a number is not written.
record_result() {
    local area="$1" metric="$2" title="$3" ours="$4" unit="$5" peer="$6" peer_value="$7" target="$8" note="$9"
    local ratio=null ours_json peer_json
    ours_json="$(json_number "$ours")"
    [ "$ours_json" = null ] && return 0
    peer_json="$(json_number "$peer_value")"
    if [ "$peer_json" != null ]; then
        ratio="$(awk -v a="$ours" -v b="$peer_value" 'BEGIN { if (b != 0) printf "%.4g", a / b; else printf "null" }')"
    fi
    mkdir -p "$results_dir"
    printf '{"metric":%s,"title":%s,"ours":%s,"unit":%s,"peer":%s,"peer_value":%s,"ratio":%s,"target":%s,"date":%s,"commit":%s,"machine":%s,"source":%s}\n' \
        "$(json_string "$metric")" "$(json_string "$title")" "$ours_json" "$(json_string "$unit")" \
        "$(if [ -n "$peer" ]; then json_string "$peer"; else printf null; fi)" "$peer_json" "$ratio" \
        "$(if [ -n "$target" ]; then json_string "$target"; else printf null; fi)" \
        "$(json_string "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(json_string "$results_commit")" \
        "$(json_string "$results_machine${note:+; $note}")" "$(json_string "$results_source")" \
        >> "$results_dir/$area.jsonl"
}
