#!/usr/bin/env bash
# Builds Pikafish-HCE (Pikafish's search with a handcrafted evaluation; GPL-3, not part of
# this repository) from a clone you name, checks that it speaks UCI, and prints the
# command that plays xq against it as docs/strength.md does.
#
#   git clone https://github.com/skystarspython/Pikafish-HCE /some/where
#   tools/pikafish-hce.sh /some/where
#
# It runs `make build` in the clone's src/ (ARCH=x86-64-avx2 where the CPU has AVX2,
# x86-64 on other x86 machines, armv8 on 64-bit ARM) and writes nothing here. The referee
# is `xqmatch.py`; XQMATCH names it (default: xqmatch.py on the PATH).
set -euo pipefail
src=${1:?usage: tools/pikafish-hce.sh PIKAFISH_HCE_CLONE}
if [ ! -f "$src/src/Makefile" ] || [ ! -f "$src/src/evaluate.cpp" ]; then
    echo "error: $src/src/Makefile or evaluate.cpp not found: name a clone of" \
        "https://github.com/skystarspython/Pikafish-HCE" >&2
    exit 1
fi
case "$(uname -m)" in
    x86_64)
        if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then arch=x86-64-avx2; else arch=x86-64; fi ;;
    aarch64 | arm64) arch=armv8 ;;
    *) arch=general-64 ;;
esac
echo "building Pikafish-HCE in $src/src with ARCH=$arch" >&2
make -C "$src/src" -j"$(nproc)" build ARCH="$arch" >&2
bin="$(cd "$src/src" && pwd)/pikafish"
if ! printf 'uci\nquit\n' | "$bin" | grep -qx uciok; then
    echo "error: $bin did not answer uci with uciok" >&2
    exit 1
fi
cd "$(dirname "$0")/.."
echo "built $bin; play it (one thread each, two games at once, as docs/strength.md):" >&2
cat <<EOF
cargo build --release -p xq-cli
python3 ${XQMATCH:-xqmatch.py} --engine "cmd=$PWD/target/release/xq uci name=xq" \\
    --engine "cmd=$bin name=pikafish-hce" \\
    --tc 10+0.1 --games 200 --concurrency 2 --openings $PWD/tools/openings-wide.txt
EOF
