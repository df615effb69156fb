#!/usr/bin/env bash
# Builds xq for the web into web/dist/:
#   web/dist/pkg/   the npm package xq-xiangqi (ES module, TypeScript types, the wasm, the
#                   engine's worker scripts)
#   web/dist/       the analysis board (index.html, app.js, style.css, and fonts/: its font,
#                   made by tools/web-font.sh, with the font's licence) using ./pkg/
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at the version of the
# wasm-bindgen crate in Cargo.lock (both installed here when missing). Then `cargo build
# -p xq-cli` embeds web/dist into `xq serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dist=web/dist
pkg=$dist/pkg

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "build.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
  echo "build.sh: installing wasm-bindgen-cli $version"
  # --locked first; if a pinned dependency of the CLI is missing from the registry,
  # the CLI's own version is still the one pinned.
  cargo install wasm-bindgen-cli --version "$version" --locked --quiet \
    || cargo install wasm-bindgen-cli --version "$version" --quiet
fi

# The workspace's release profile: opt-level 3, LTO, one codegen unit. With 128-bit SIMD
# (every current browser has it: Chrome and Edge 91, Firefox 89, Safari 16.4; Node 16.4),
# so the network's loops are vectorised as in the native build; XQ_WASM_SIMD=0 builds
# without it.
simd=${XQ_WASM_SIMD:-1}
simd_opt=()
if [ "$simd" = 1 ]; then
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -C target-feature=+simd128"
  simd_opt=(--enable-simd)
fi
cargo build --release --target wasm32-unknown-unknown -p xq-wasm --quiet
rm -rf "$dist"
mkdir -p "$pkg"
wasm-bindgen --target web --out-dir "$pkg" --out-name xq_wasm \
  target/wasm32-unknown-unknown/release/xq_wasm.wasm
# wasm-opt (binaryen, from npm, pinned) makes the wasm a quarter smaller and a little
# faster; without npm the build goes on with wasm-bindgen's output.
binaryen=132.0.0
tools=target/web-tools
if [ ! -x "$tools/node_modules/.bin/wasm-opt" ] && command -v npm >/dev/null 2>&1; then
  npm install --silent --no-save --no-audit --no-fund --prefix "$tools" "binaryen@$binaryen" >/dev/null 2>&1 \
    || echo "build.sh: binaryen could not be installed from npm: the wasm is not optimised by wasm-opt"
fi
if [ -x "$tools/node_modules/.bin/wasm-opt" ]; then
  # The features rustc enables by default for wasm32-unknown-unknown, and SIMD where built with it.
  "$tools/node_modules/.bin/wasm-opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "${simd_opt[@]}" "$pkg/xq_wasm_bg.wasm" -o "$pkg/xq_wasm_bg.wasm.opt"
  mv "$pkg/xq_wasm_bg.wasm.opt" "$pkg/xq_wasm_bg.wasm"
fi
cp web/pkg/package.json web/pkg/xq-engine.js web/pkg/xq-search-worker.js web/pkg/xq-node.js web/pkg/xq-node.d.ts "$pkg/"
cp xq-wasm/README.md "$pkg/README.md"
cp LICENSE-MIT LICENSE-APACHE "$pkg/"
cp -R web/page/. "$dist/"

wasm=$pkg/xq_wasm_bg.wasm
printf 'built %s: wasm %s bytes (gzip %s), JS glue %s bytes, page %s bytes\n' "$dist" \
  "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)" "$(wc -c <"$pkg/xq_wasm.js")" \
  "$(cat "$dist"/index.html "$dist"/app.js "$dist"/style.css | wc -c)"
printf 'font: %s bytes\n' "$(cat "$dist"/fonts/*.woff2 | wc -c)"
cd "$root"
