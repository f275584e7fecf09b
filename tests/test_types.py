"""The desktop's type hints: every public function of host/presstime says the types it takes and
returns, and pyright (the dev extra; settings in pyproject.toml's [tool.pyright]) finds no error
in them. firmware/ carries no hints (MicroPython: docs/DESIGN); pyright reads it as the host
imports it (presstime.core, presstime.device) and checks how the host uses it."""

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

from mpy import ROOT

HOST = os.path.join(ROOT, "host", "presstime")


def _not_yet():
    """The modules pyproject.toml's [tool.pyright] ignore lists: not annotated yet."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return set(tomllib.load(f)["tool"]["pyright"].get("ignore", []))


def _public_functions():
    """(file, line, qualified name, def) of every module-level function and every method of a
    module-level class, whose name has no leading underscore (__init__ of a public class is
    public: the class's call)."""
    for here, dirs, files in os.walk(HOST):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(here, name)
            if os.path.relpath(path, ROOT).replace(os.sep, "/") in _not_yet():
                continue
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in tree.body:
                defs = (
                    [(node.name, node)]
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    else []
                )
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    defs = [
                        (node.name + "." + d.name, d)
                        for d in node.body
                        if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
                    ]
                for qual, fn in defs:
                    short = fn.name
                    if short.startswith("_") and short != "__init__":
                        continue
                    yield os.path.relpath(path, ROOT), fn.lineno, qual, fn


def _missing(fn):
    a = fn.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]
    out = [p.arg for p in params if p.annotation is None and p.arg not in ("self", "cls")]
    if fn.returns is None:
        out.append("the return")
    return out


def test_every_public_function_of_the_host_has_type_hints():
    bare = [
        "%s:%d %s: %s" % (path, line, qual, ", ".join(_missing(fn)))
        for path, line, qual, fn in _public_functions()
        if _missing(fn)
    ]
    assert not bare, "public functions without type hints:\n" + "\n".join(bare)


def _pyright():
    exe = shutil.which("pyright")
    if exe:
        return [exe]
    try:
        import pyright  # noqa: F401  (the PyPI wrapper: python -m pyright)
    except ImportError:
        return None
    return [sys.executable, "-m", "pyright"]


def test_the_modules_not_yet_annotated_exist():
    assert [p for p in sorted(_not_yet()) if not os.path.exists(os.path.join(ROOT, p))] == []


@pytest.mark.slow  # pyright reads the whole package: about 20 s here
def test_pyright_finds_no_error_in_the_host():
    cmd = _pyright()
    if cmd is None:
        pytest.skip("pyright is not installed (pip install -e '.[dev]')")
    proc = subprocess.run(
        cmd + ["--outputjson", "--pythonpath", sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        pytest.fail("pyright did not run: %s" % (proc.stdout + proc.stderr)[-2000:])
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    lines = [
        "%s:%d: %s"
        % (
            os.path.relpath(d["file"], ROOT),
            d["range"]["start"]["line"] + 1,
            d["message"].splitlines()[0],
        )
        for d in errors
    ]
    assert report["summary"]["filesAnalyzed"] > 50, report["summary"]
    assert not lines, "pyright:\n" + "\n".join(lines)
