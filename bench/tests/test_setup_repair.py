"""An interrupted setup is repaired by the next `make` (the Makefile's
venv-complete-or-redone and redo-unless-complete).

The real make files run in a temporary copy of the tree (its own ROOT, its
own .venv-bench and .stamps; the shared tree's venvs are never touched):

* `make setup-bench` stopped with SIGINT while `python -m venv` is still
  creating the venv, then `make setup-bench` again: a working venv with the
  requirements installed; a complete venv is then kept when the rule runs
  again;
* a venv as the old rules left it after such an interrupt (bin/python, no
  pip), then `make setup-bench`: made again, not built upon;
* a client jar newer than the mark its build touches last (Maven stopped
  between writing the plain jar and shading it): `make` rebuilds it.

The copy's bench/requirements.txt names one small wheel instead of the real
list, to keep the test short; the rules are the real ones.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMALL_REQUIREMENT = "iniconfig==2.1.0\n"
MAKE_TIMEOUT_S = 120

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("python3.11") is None,
    reason="needs make and python3.11 (what `make setup` needs anyway)")


@pytest.fixture
def tree(tmp_path):
    """The tree's make files (as they are now) in a fresh directory."""
    copy = tmp_path / "tree"
    for directory, subdirs, files in os.walk(ROOT):
        # Only sources hold make files: skip git, installs and build outputs.
        subdirs[:] = [d for d in subdirs if not (d.startswith(".") or d in {"node_modules", "target", "dist"})]
        rel = os.path.relpath(directory, ROOT)
        for name in files:
            if (name == "Makefile" and rel == ".") or name == "make.mk":
                (copy / rel).mkdir(parents=True, exist_ok=True)
                shutil.copy2(os.path.join(directory, name), copy / rel / name)
    (copy / "bench" / "requirements.txt").write_text(SMALL_REQUIREMENT)
    return copy


def make(tree, *targets, check=True):
    result = subprocess.run(["make", "-C", str(tree), *targets], capture_output=True, text=True,
                            timeout=MAKE_TIMEOUT_S)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def venv_works(venv):
    """pip runs, and the requirement imports."""
    python = str(venv / "bin" / "python")
    pip = subprocess.run([python, "-m", "pip", "--version"], capture_output=True)
    imports = subprocess.run([python, "-c", "import iniconfig"], capture_output=True)
    return pip.returncode == 0 and imports.returncode == 0


def test_make_stopped_while_the_venv_is_created_is_repaired_by_the_next_make(tree):
    venv = tree / ".venv-bench"
    # SIGINT back to its default in make (and so in what make starts): a test run in a
    # background job inherits SIGINT ignored, and then the interrupt below would do nothing.
    started = subprocess.Popen(["make", "-C", str(tree), "setup-bench"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (venv / "bin" / "python").exists():
        assert started.poll() is None, "make ended before creating the venv"
        assert time.monotonic() < deadline, "no venv after 60 s"
        time.sleep(0.01)
    # Ctrl-C as a terminal sends it: to make and everything it started.
    os.killpg(started.pid, signal.SIGINT)
    started.wait(timeout=30)
    assert started.returncode != 0
    assert (venv / ".install-incomplete").exists(), "the venv says its install did not finish"
    assert not (tree / ".stamps" / "venv-bench").exists()

    result = make(tree, "setup-bench")
    assert "its last install did not finish; making the venv again" in result.stdout
    assert venv_works(venv)
    assert not (venv / ".install-incomplete").exists()
    assert (tree / ".stamps" / "venv-bench").exists()

    # Complete now: when the rule runs again (as after an input changed), the venv is kept.
    (venv / "kept").write_text("")
    (tree / ".stamps" / "venv-bench").unlink()
    result = make(tree, "setup-bench")
    assert "making the venv again" not in result.stdout
    assert (venv / "kept").exists() and venv_works(venv)


def test_a_venv_without_pip_left_by_an_older_interrupted_setup_is_made_again(tree):
    venv = tree / ".venv-bench"
    subprocess.run(["python3.11", "-m", "venv", "--without-pip", str(venv)], check=True)
    assert (venv / "bin" / "python").exists() and not venv_works(venv)

    result = make(tree, "setup-bench")
    assert "making the venv again" in result.stdout
    assert venv_works(venv)


def test_a_jar_written_after_its_last_complete_build_is_rebuilt(tree):
    java = tree / "client-java"
    (java / "target").mkdir(parents=True)
    (java / "pom.xml").write_text("<project/>\n")
    jar = java / "target" / "sockbench-client.jar"
    mark = tree / ".stamps" / "setup-java"
    mark.parent.mkdir(exist_ok=True)
    now = time.time()
    os.utime(java / "pom.xml", (now - 30, now - 30))

    def plan():
        """The commands `make setup-java` would run (-n: none is run)."""
        return make(tree, "-n", "setup-java").stdout

    jar.write_bytes(b"a complete build")
    os.utime(jar, (now - 20, now - 20))
    mark.touch()
    os.utime(mark, (now - 20, now - 20))
    assert "mvn " not in plan(), "complete and up to date: nothing to do"

    os.utime(jar, (now - 10, now - 10))  # Maven wrote the jar, then was stopped
    assert "mvn " in plan()

    mark.unlink()
    assert "mvn " in plan(), "no mark at all: rebuilt"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
