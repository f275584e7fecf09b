"""No import circles in the core, the device or the desktop package, and no library module
importing a command: every `import` and `from ... import` statement is read with ast, those
inside functions too (a lazy import is still an import), and the graph must have no cycle."""

import ast
import os

from mpy import ROOT

PACKAGES = {
    "presstime": os.path.join(ROOT, "host", "presstime"),
    "presstime.core": os.path.join(ROOT, "firmware", "presstime", "core"),
    "presstime.device": os.path.join(ROOT, "firmware", "presstime", "device"),
}


def _modules():
    """{module name: file} for every .py file of the three packages."""
    out = {}
    for pkg, folder in PACKAGES.items():
        for here, dirs, files in os.walk(folder):
            dirs[:] = [
                d
                for d in dirs
                if d != "__pycache__" and os.path.join(here, d) not in PACKAGES.values()
            ]
            rel = os.path.relpath(here, folder)
            base = pkg if rel == "." else pkg + "." + rel.replace(os.sep, ".")
            for name in files:
                if name.endswith(".py"):
                    out[base if name == "__init__.py" else base + "." + name[:-3]] = os.path.join(
                        here, name
                    )
    return out


def _imports(name, path, known):
    """The known modules `name` imports (anywhere in the file)."""
    is_pkg = path.endswith("__init__.py")
    package = name if is_pkg else name.rpartition(".")[0]
    out = set()
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in known:
                    out.add(a.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                target = base + ("." + node.module if node.module else "")
            else:
                target = node.module or ""
            if target in known:
                out.add(target)
            for a in node.names:  # `from . import x`: x is a module
                if target + "." + a.name in known:
                    out.add(target + "." + a.name)
    out.discard(name)
    # importing a.b.c runs a/__init__ and a/b/__init__ first: those are no dependency to count
    return out


def _graph():
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def _cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_walk_sees_the_packages():
    graph = _graph()
    assert "presstime.core.table" in graph and "presstime.entry.engine" in graph
    assert "presstime.core.games" in graph["presstime.core.table"]
    assert (
        "presstime.core.fit_to_print_check" in graph["presstime.core.fit_to_print_score"]
    )  # a lazy import


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_the_walk_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_library_module_imports_a_command():
    """Commands are the CLI's front ends: library modules (play_loop, entry...) never import
    one (commands import the library, not the other way round)."""
    graph = _graph()
    for name, deps in graph.items():
        if name.startswith("presstime.commands") or name == "presstime.cli":
            continue
        assert not [d for d in deps if d.startswith("presstime.commands")], name
