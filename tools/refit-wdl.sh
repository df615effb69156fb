#!/usr/bin/env bash
# Refits the win/draw/loss model (xq_search::wdl) to `xq datagen` data and writes it into
# xq-search/data/wdl-model.txt; docs/wdl.md says when to (the evaluation or the search changed)
# and how the fit is judged.
#
#   tools/refit-wdl.sh DATA [LINES]
#
# DATA is a datagen file (`FEN | score | result` lines); it may still be growing (a
# datagen run writing it): the fit reads a snapshot of its first LINES lines (default:
# every complete line now), copied to target/wdl-snapshot.txt, and prints the snapshot's
# size and checksum for the record in docs/wdl.md. XQ names the xq binary to use (default:
# a release build, made if needed).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: tools/refit-wdl.sh DATA [LINES]}
lines=${2:-$(wc -l < "$data")}
mkdir -p target
snapshot=target/wdl-snapshot.txt
head -n "$lines" "$data" > "$snapshot"
echo "snapshot: $(wc -l < "$snapshot") lines of $data, sha256 $(sha256sum "$snapshot" | cut -d' ' -f1)"
if [ -z "${XQ:-}" ]; then
    cargo build --release -q -p xq-cli
    XQ=target/release/xq
fi
"$XQ" tune-wdl "$snapshot" --write
