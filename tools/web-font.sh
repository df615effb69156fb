#!/usr/bin/env bash
# Regenerates the analysis board's font (web/page/fonts/): a subset of Noto Serif CJK SC,
# Regular and Bold, from Debian's package fonts-noto-cjk, with every character the page
# shows (pieces, river, coordinates, Chinese notation), as WOFF2, and its licence (SIL
# Open Font License 1.1). Installs what it needs: fonts-noto-cjk (apt, as root) and
# fontTools with Brotli (PyPI, pinned, in a virtual environment under target/).
# The files committed were made from fonts-noto-cjk 1:20220127+repack1-1 (Debian 12).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q 'install ok installed'; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
version=$(dpkg-query -W -f='${Version}' fonts-noto-cjk)

venv=target/font-tools
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check fonttools==4.68.0 brotli==1.2.1
"$venv/bin/python" tools/web-font.py --package-version "$version" \
  --copyright /usr/share/doc/fonts-noto-cjk/copyright \
  --fonts /usr/share/fonts/opentype/noto --out web/page/fonts
