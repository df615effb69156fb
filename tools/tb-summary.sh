#!/usr/bin/env bash
# Rewrites the summary of the tablebase set in docs/tablebases.md (between its two
# markers) from the generation log kept in docs/data/tablebases.csv, by
# `xq tb stats --summary`. Run it after replacing that log with a new run's
# DIR/endings.csv. The test summary_of_the_log_in_the_repository (xq-cli/tests/tb.rs) fails while the
# docs and the log disagree.
#
#   tools/tb-summary.sh
#
# XQ names the xq binary to use (default: `cargo run -p xq-cli`, a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
doc=docs/tablebases.md
begin='<!-- made by tools/tb-summary.sh from docs/data/tablebases.csv -->'
end='<!-- end of the summary -->'
if ! grep -qxF "$begin" "$doc" || ! grep -qxF "$end" "$doc"; then
    echo "tools/tb-summary.sh: $doc has not the markers $begin and $end" >&2
    exit 1
fi
if [ -n "${XQ:-}" ]; then
    summary=$("$XQ" tb stats --summary docs/data/tablebases.csv)
else
    summary=$(cargo run -q -p xq-cli -- tb stats --summary docs/data/tablebases.csv)
fi
SUMMARY="$summary" awk -v b="$begin" -v e="$end" '
    $0 == b { print; print ""; print ENVIRON["SUMMARY"]; print ""; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' "$doc" > "$doc.tmp"
mv "$doc.tmp" "$doc"
echo "the summary in $doc is the log's"
