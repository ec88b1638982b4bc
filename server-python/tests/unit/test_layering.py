"""The package's layering: the sans-I/O core and the application API stay
free of Tornado, and no module imports one that (directly or not) imports
it back - counting imports under ``if TYPE_CHECKING:`` too."""
import ast
import os
import subprocess
import sys

import sockbench_server

PACKAGE_DIR = os.path.dirname(sockbench_server.__file__)


def test_the_core_imports_nothing_from_tornado():
    code = ("import sys, pkgutil, importlib, sockbench_server.protocol as p; "
            "[importlib.import_module('sockbench_server.protocol.' + m.name) "
            " for m in pkgutil.iter_modules(p.__path__)]; "
            "import sockbench_server.api, sockbench_server.apps; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tornado'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def module_name(path):
    rel = os.path.relpath(path, os.path.dirname(PACKAGE_DIR))[:-3].replace(os.sep, ".")
    return rel[:-len(".__init__")] if rel.endswith(".__init__") else rel


def package_imports():
    """{module: set of package modules it imports}, from the source."""
    graph = {}
    for folder, _, files in os.walk(PACKAGE_DIR):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(folder, f)
            name = module_name(path)
            is_package = f == "__init__.py"
            tree = ast.parse(open(path, encoding="utf-8").read(), path)
            deps = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    if node.level:
                        base = name.split(".")
                        base = base[:len(base) - node.level + (1 if is_package else 0)]
                        target = ".".join(base + ([node.module] if node.module else []))
                    else:
                        target = node.module or ""
                    deps.add(target)
                    # "from . import frames" imports a module, not a name
                    deps.update(target + "." + a.name for a in node.names)
            graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def find_cycle(graph):
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack = []

    def visit(m):
        colour[m] = GREY
        stack.append(m)
        for d in sorted(graph[m]):
            if colour[d] == GREY:
                return stack[stack.index(d):] + [d]
            if colour[d] == WHITE:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        colour[m] = BLACK
        return None

    for m in sorted(graph):
        if colour[m] == WHITE:
            found = visit(m)
            if found:
                return found
    return None


def test_no_module_of_the_package_is_part_of_an_import_circle():
    graph = package_imports()
    assert "sockbench_server.protocol.session" in graph
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


def test_the_circle_finder_finds_circles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_fan_out_and_the_interfaces_do_not_know_sessions():
    graph = package_imports()
    p = "sockbench_server.protocol."
    assert p + "session" not in graph[p + "fanout"]
    for leaf in ("receiver", "states", "errors", "group"):
        assert graph[p + leaf] == set(), (leaf, graph[p + leaf])


def test_the_batch_imports_neither_the_dispatch_nor_sessions():
    """fanout.py (who gets a message) imports batch.py (the fast batch),
    never the reverse."""
    graph = package_imports()
    p = "sockbench_server.protocol."
    assert p + "batch" in graph[p + "fanout"]
    assert not graph[p + "batch"] & {p + "fanout", p + "session", p + "raw_session", p + "service"}
