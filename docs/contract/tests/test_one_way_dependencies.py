"""Dependencies run one way: the bench (bench/) uses the servers, never the
reverse. A server's code, tests and make rules may use docs/contract, but
nothing in server-python/ or server-node/ reaches into bench/: no import of a
bench module, no sys.path entry, require() or path string naming bench/, no
make rule using bench/'s files or variables. Otherwise a change to the
harness could break a server's own tests, and a server could not be taken out
of the tree with docs/contract alone.

Comments and docstrings are prose and may mention bench/; everything else is
read. Each finding names the file and line.
"""

import ast
import os
import re

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
SERVERS = ("server-python", "server-node")
SKIP_DIRS = {"node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", "target", ".git"}

#: A path component `bench` (`bench`, `bench/x`, `../bench`, `$(ROOT)/bench/x`), not `sockbench` or `bench_x`.
BENCH_PATH = re.compile(r"(?:^|[/\\\s'\"(){}$:=])bench(?:[/\\]|$|['\"\s)])")


def bench_python_modules():
    """Top-level names a Python file could import from bench/ once bench/ is on sys.path."""
    names = set()
    for entry in os.listdir(os.path.join(ROOT, "bench")):
        path = os.path.join(ROOT, "bench", entry)
        if entry.endswith(".py"):
            names.add(entry[:-3])
        elif os.path.isfile(os.path.join(path, "__init__.py")):
            names.add(entry)
    return names


def bench_make_variables():
    """Variables bench/'s make files define: a server rule using one depends on bench/."""
    names = set()
    for folder, dirs, files in os.walk(os.path.join(ROOT, "bench")):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for f in files:
            if f == "make.mk" or f.endswith(".mk"):
                with open(os.path.join(folder, f), encoding="utf-8") as fh:
                    names.update(re.findall(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?::=|\?=|\+=|=)", fh.read(), re.M))
    return names


def component_names(component_dir):
    """Every module or folder name inside a component: an import of one of these is its own."""
    names = set()
    for folder, dirs, files in os.walk(component_dir):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".venv")]
        names.update(dirs)
        names.update(f[:-3] for f in files if f.endswith(".py"))
    return names


def docstring_nodes(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def python_findings(text, bench_modules, own_names):
    """[(line, what)] for one Python file's source."""
    tree = ast.parse(text)
    docstrings = docstring_nodes(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            mods = [node.module or ""]
        else:
            mods = []
        for mod in mods:
            top = mod.split(".")[0]
            if top == "bench" or (top in bench_modules and top not in own_names):
                out.append((node.lineno, f"imports {mod}, a bench/ module"))
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                and BENCH_PATH.search(node.value)):
            out.append((node.lineno, f"names bench/ in the string {node.value!r}"))
    return sorted(out)


def strip_js_comments(text):
    """JavaScript source with // and /* */ comments blanked (newlines kept), strings and templates left alone."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


JS_STRING = re.compile(r"""(['"`])((?:\\.|(?!\1).)*)\1""")


def js_findings(text):
    out = []
    for lineno, line in enumerate(strip_js_comments(text).splitlines(), 1):
        for m in JS_STRING.finditer(line):
            if BENCH_PATH.search(m.group(2)) or m.group(2) == "bench":
                out.append((lineno, f"names bench/ in the string {m.group(0)}"))
    return out


def make_findings(text, bench_variables):
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("\t") else line
        if line.lstrip().startswith("#"):
            continue
        if BENCH_PATH.search(code):
            out.append((lineno, "names bench/ in a make rule"))
        for var in re.findall(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]", code):
            if var in bench_variables:
                out.append((lineno, f"uses $({var}), which bench/'s make files define"))
    return out


def findings():
    bench_modules, bench_variables = bench_python_modules(), bench_make_variables()
    out = []
    for component in SERVERS:
        top = os.path.join(ROOT, component)
        own = component_names(top)
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".venv")]
            for f in sorted(files):
                path = os.path.join(folder, f)
                if f.endswith(".py"):
                    check = lambda text: python_findings(text, bench_modules, own)  # noqa: E731
                elif f.endswith((".js", ".mjs", ".cjs")):
                    check = js_findings
                elif f.endswith(".mk") or f == "Makefile":
                    check = lambda text: make_findings(text, bench_variables)  # noqa: E731
                else:
                    continue
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                rel = os.path.relpath(path, ROOT)
                out += [f"{rel}:{line}: {what}" for line, what in check(text)]
    return out


def test_no_server_reaches_into_bench():
    found = findings()
    assert not found, "a server depends on bench/ (move what it needs to docs/contract):\n" + "\n".join(found)


# The finders themselves, on sources that do and do not reach into bench/.

def test_python_imports_and_path_strings_into_bench_are_found():
    source = '''"""Docstring naming bench/ is prose."""
import json
import registry
from bench import measure
from servers import entry
import socket_owners  # ours
sys.path.insert(0, os.path.join(here, "..", "..", "bench"))
spec = importlib.util.spec_from_file_location("m", "../../bench/ready_line.py")
label = "sockbench-tornado"
'''
    got = python_findings(source, {"registry", "servers", "socket_owners"}, {"socket_owners"})
    assert [line for line, _ in got] == [3, 4, 5, 7, 8]


def test_js_requires_and_paths_into_bench_are_found_but_not_comments():
    source = """// see bench/run_bench.py
const reg = require('../../bench/registry.js');
/* bench/ in a block
   comment */ const x = 1;
const file = path.join(__dirname, '..', '..', 'bench', 'server-registry.json');
import y from "../bench/x.mjs";
const name = 'sockbench-node';
"""
    assert [line for line, _ in js_findings(source)] == [2, 5, 6]


def test_make_rules_naming_bench_or_its_variables_are_found():
    source = """# comment about bench/broker is fine
x:
\tpython3 $(ROOT)/bench/private_redis.py
\t$(REGISTRY) requirement foo
y: $(STAMPS)/sockbench
"""
    assert [line for line, _ in make_findings(source, {"REGISTRY"})] == [3, 4]


@pytest.mark.parametrize("text", ["bench", "bench/x.py", "../bench", "$(ROOT)/bench/make.mk", "a bench/ b"])
def test_a_path_component_bench_is_a_bench_path(text):
    assert BENCH_PATH.search(text)


@pytest.mark.parametrize("text", ["sockbench", "sockbench_server", "bench_x", "benchmark", "workbench/"])
def test_other_words_with_bench_in_them_are_not(text):
    assert not BENCH_PATH.search(text)
