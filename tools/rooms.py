#!/usr/bin/env python3
"""Checks that the rooms of the house keep their size and their shape:

- xq-cli/src (the binary: arguments, files, printing) holds at most 3,000 lines;
- README.md holds at most 260 lines, and its command table names every command of
  `xq --help` (run with the binary's path: `python3 tools/rooms.py target/release/xq`);
- no crate depends on xq-cli (the binary is the top of the house).
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
problems = []

cli_lines = sum(len(p.read_text(encoding="utf-8").splitlines())
                for p in (ROOT / "xq-cli" / "src").rglob("*.rs"))
if cli_lines > 3000:
    problems.append(f"xq-cli/src has {cli_lines} lines (at most 3,000)")

readme = (ROOT / "README.md").read_text(encoding="utf-8")
if len(readme.splitlines()) > 260:
    problems.append(f"README.md has {len(readme.splitlines())} lines (at most 260)")

for manifest in ROOT.glob("*/Cargo.toml"):
    if manifest.parent.name == "xq-cli":
        continue
    deps = manifest.read_text(encoding="utf-8")
    if re.search(r"^xq-cli\b", deps, re.M):
        problems.append(f"{manifest.relative_to(ROOT)} depends on xq-cli")

if len(sys.argv) > 1:
    help_text = subprocess.run([sys.argv[1], "--help"], check=True,
                               capture_output=True, text=True).stdout
    block = help_text.split("Commands:")[1].split("Options:")[0]
    commands = [line.split()[0] for line in block.splitlines() if line.strip()]
    table = readme[readme.index("## Commands"):readme.index("\n## ", readme.index("## Commands") + 1)]
    for command in commands:
        if command != "help" and f"`xq {command}" not in table and f"`xq {command}`" not in table:
            problems.append(f"README's command table does not name `xq {command}`")

if problems:
    sys.exit("\n".join(problems))
print(f"xq-cli/src {cli_lines} lines, README {len(readme.splitlines())} lines, "
      "every command in the README's table, nothing depends on xq-cli")
