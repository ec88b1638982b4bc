"""Every component README names each of its source files (check_module_index.py): the repository passes, and a
small repository built here shows what the check catches and what it leaves alone."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import check_module_index  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def test_every_source_file_of_every_component_is_named_in_its_readme():
    missing = check_module_index.missing_from_readmes(REPO)
    assert missing == [], "\n".join(f"{readme} does not name {path}" for path, readme in missing)


def make_repo(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return str(root)


def test_a_source_file_missing_from_the_readme_is_reported_with_the_readme_that_should_name_it(tmp_path):
    repo = make_repo(tmp_path, {
        "bench/README.md": "- `run_bench.py`: the runner\n",
        "bench/run_bench.py": "",
        "bench/compare.py": "",
    })
    assert check_module_index.missing_from_readmes(repo) == [("bench/compare.py", "bench/README.md")]


def test_a_sub_folder_readme_covers_its_own_files_and_only_those(tmp_path):
    repo = make_repo(tmp_path, {
        "bench/README.md": "- `top.py`\n",
        "bench/top.py": "",
        "bench/peers/go/README.md": "- `main.go`: the peer\n",
        "bench/peers/go/main.go": "",
        "bench/peers/go/deep/conn.go": "",   # nearest README is bench/peers/go/README.md: it lacks conn.go
        "bench/peers/other/peer.js": "",     # no README of its own: bench/README.md must name it
    })
    assert sorted(check_module_index.missing_from_readmes(repo)) == [
        ("bench/peers/go/deep/conn.go", "bench/peers/go/README.md"),
        ("bench/peers/other/peer.js", "bench/README.md"),
    ]


def test_tests_fixtures_package_markers_and_other_files_are_not_modules(tmp_path):
    repo = make_repo(tmp_path, {
        "server-python/README.md": "",
        "server-python/tests/unit/helper.py": "",
        "server-python/pkg/__init__.py": "",
        "server-python/pkg/test_thing.py": "",
        "server-python/pkg/conftest.py": "",
        "client-java/README.md": "",
        "client-java/src/test/java/x/FooTest.java": "",
        "site/README.md": "",
        "site/test/page.test.js": "",
        "site/src/index.html": "",
        "docs/contract/README.md": "",
        "docs/contract/ready-line-cases.json": "",
    })
    assert check_module_index.missing_from_readmes(repo) == []


def test_build_output_that_git_ignores_is_not_a_module(tmp_path):
    repo = make_repo(tmp_path, {
        ".gitignore": "dist/\n",
        "site/README.md": "",
        "site/dist/js/bundle.js": "",
    })
    assert check_module_index.missing_from_readmes(repo) == []


def test_the_command_line_exits_1_and_names_each_missing_file(tmp_path):
    repo = make_repo(tmp_path, {"site/README.md": "", "site/src/js/page.js": ""})
    done = subprocess.run([sys.executable, check_module_index.__file__, repo], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stdout == "site/README.md: does not name site/src/js/page.js (add a line on its job)\n"
