#!/usr/bin/env bash
# Generates the whole phase-1 tablebase set (414 endings, docs/tablebases.md) into DIR,
# verifies every table by a forward pass, and summarizes the run.
#
#   tools/tb-full.sh DIR [THREADS] [NOTE]
#
# Run it on a machine with nothing else to do: it takes hours on two cores (the
# measured time is in docs/tablebases.md). It can be stopped and started again: tables
# already in DIR are checked and kept. In DIR:
#
#   endings.csv  the generator's log, a row for each table made or kept: counts, longest
#                mate, times, bytes (format 1, docs/tablebases.md); NOTE (say "idle")
#                goes in each row of this run
#   summary.md   the log's summary, as docs/tablebases.md shows it
#   stats.md     the tables' headers as one Markdown table
#   gen.log      what the generator printed
#
# To put a run in the docs: cp DIR/endings.csv docs/data/tablebases.csv, then
# tools/tb-summary.sh. XQ names the xq binary to use (default: a release build, made if
# needed).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: tools/tb-full.sh DIR [THREADS] [NOTE]}
threads=${2:-$(nproc)}
note=${3:-}
if [ -z "${XQ:-}" ]; then
    cargo build --release -q -p xq-cli
    XQ=target/release/xq
fi
mkdir -p "$dir"
"$XQ" tb gen --all -o "$dir" --threads "$threads" --note "$note" 2>&1 | tee -a "$dir/gen.log"
"$XQ" tb stats "$dir" > "$dir/stats.md"
"$XQ" tb stats --summary "$dir" > "$dir/summary.md"
echo "tables in $dir: their log in $dir/endings.csv, its summary in $dir/summary.md"
