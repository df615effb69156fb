#!/usr/bin/env bash
# Generates the whole phase-1 tablebase set (414 endings, docs/tablebases.md) into DIR,
# verifies every table by a forward pass, and prints the Markdown table for the docs.
#
#   tools/tb-full.sh DIR [THREADS]
#
# Run it on a machine with nothing else to do: it takes hours on two cores (the estimate
# is in docs/tablebases.md). It can be stopped and started again: tables already in DIR
# are checked and kept. The log goes to DIR/gen.log, the table to DIR/stats.md. XQ names
# the xq binary to use (default: a release build, made if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: tools/tb-full.sh DIR [THREADS]}
threads=${2:-$(nproc)}
if [ -z "${XQ:-}" ]; then
    cargo build --release -q -p xq-cli
    XQ=target/release/xq
fi
mkdir -p "$dir"
"$XQ" tb gen --all -o "$dir" --threads "$threads" 2>&1 | tee -a "$dir/gen.log"
"$XQ" tb stats "$dir" > "$dir/stats.md"
echo "tables in $dir, their statistics in $dir/stats.md"
