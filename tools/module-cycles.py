#!/usr/bin/env python3
"""Finds import circles between the modules of each crate of the workspace.

A module's file names another module when its code (not its comments) says
`crate::<module>`, in a `use` or a path. Two modules that name each other, directly or
around a loop, are a circle. Tests (`#[cfg(test)]` blocks at the end of a file) are left
out: a test may look anywhere. Exits 1 and lists the circles if there is any.

    python3 tools/module-cycles.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def modules(src):
    """Top-level module name -> its source text (a module's submodules count as it)."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            parts = rel[:-3].split(os.sep)
            top = parts[0]
            if top in ("lib", "main"):
                continue
            text = open(path, encoding="utf-8").read()
            cut = text.find("#[cfg(test)]")
            if cut >= 0:
                text = text[:cut]
            # Comments (doc links among them) name modules without importing them.
            text = "\n".join(
                line for line in text.splitlines() if not line.lstrip().startswith("//")
            )
            out.setdefault(top, "")
            out[top] += text
    return out


def graph(mods):
    edges = {m: set() for m in mods}
    for m, text in mods.items():
        for other in mods:
            if other != m and re.search(r"\bcrate::" + re.escape(other) + r"\b", text):
                edges[m].add(other)
        # `use crate::{a, b::c}` lists.
        for group in re.findall(r"crate::\{([^}]*)\}", text):
            for name in re.findall(r"(?:^|,)\s*(\w+)", group):
                if name in mods and name != m:
                    edges[m].add(name)
    return edges


def cycles(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    found = False
    for crate in sorted(os.listdir(ROOT)):
        src = os.path.join(ROOT, crate, "src")
        if not os.path.isdir(src) or not os.path.exists(os.path.join(ROOT, crate, "Cargo.toml")):
            continue
        mods = modules(src)
        for c in cycles(graph(mods)):
            found = True
            print(f"{crate}: import circle between {', '.join(c)}")
    if not found:
        print("no import circle between modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
