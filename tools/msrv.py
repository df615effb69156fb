#!/usr/bin/env python3
"""Checks the workspace's declared minimum Rust (`rust-version` in Cargo.toml) against
what the locked dependencies declare: no package of Cargo.lock, for any target, may need
a newer Rust than the workspace says it needs. (The workspace's own code is checked by
clippy's `incompatible_msrv` lint, which reads the same `rust-version`.)

    python3 tools/msrv.py
"""
import json
import subprocess
import sys


def version(text):
    return tuple(int(x) for x in text.split(".")) + (0,) * (3 - len(text.split(".")))


meta = json.loads(subprocess.run(
    ["cargo", "metadata", "--format-version", "1", "--locked"],
    check=True, capture_output=True, text=True).stdout)
ours = {p["id"] for p in meta["packages"] if p["id"] in meta["workspace_members"]}
declared = {p["rust_version"] for p in meta["packages"] if p["id"] in ours}
if len(declared) != 1 or None in declared:
    sys.exit(f"the workspace's crates declare {sorted(map(str, declared))}: one rust-version expected")
msrv = declared.pop()
over = [f"{p['name']} {p['version']} needs Rust {p['rust_version']}"
        for p in meta["packages"]
        if p["id"] not in ours and p.get("rust_version") and version(p["rust_version"]) > version(msrv)]
if over:
    sys.exit(f"rust-version is {msrv}, but in Cargo.lock:\n  " + "\n  ".join(sorted(over)))
print(f"rust-version {msrv}: every locked dependency builds with it")
