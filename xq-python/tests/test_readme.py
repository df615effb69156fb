"""The repository README's Python example runs as written, from the repository's root,
and its install line brings what it needs (`.ci/run` also runs it in a fresh virtual
environment with only that installed)."""

import re
import subprocess
import sys

import pytest

from conftest import ROOT


def readme_python():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Python\n")
    section = text[start:text.index("\n## ", start)]
    install = re.search(r"`(pip install [^`]+)`", section).group(1)
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    return install, code


def test_the_readme_python_example_runs():
    pytest.importorskip("numpy")
    install, code = readme_python()
    assert install == 'pip install "./xq-python[numpy]"'
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # What the example's comments promise.
    assert lines[0] == "35 None" and lines[2] == "0-1 26"
    assert len(lines) == 3 and len(lines[1].split("[")[1].split(",")) == 4
