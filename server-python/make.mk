# server-python: the SockJS server on Tornado, for CPython 3.11 and PyPy 3.9.
#
#   make setup-python          both venvs (.venv-cpython, .venv-pypy), idempotent
#   make test-python-cpython   unit + server tests, conformance for every usable codec and in --naive mode
#   make test-python-pypy      the same on PyPy
#   make test-python           both
#   make serve-cpython         run the server in the foreground (HOST= PORT= HEARTBEAT= JSON= NAIVE=1
#                              SESSIONS=N WORKERS=N BROKER=redis://HOST:PORT/DB; WORKERS > 1 without
#                              BROKER starts a private redis-server, see docs/contract/make.mk)
#   make serve-pypy            the same on PyPy

PY_DIR        := $(ROOT)/server-python
PY_CPYTHON    ?= python3.11
VENV_CPYTHON  := $(ROOT)/.venv-cpython
VENV_PYPY     := $(ROOT)/.venv-pypy
PY_CONSTRAINT := $(PY_DIR)/constraints.txt
# Every input of the installs: a change to any of them redoes setup.
PY_SETUP_DEPS := $(PY_DIR)/pyproject.toml $(PY_CONSTRAINT) $(PY_DIR)/make.mk
PY_CODECS     := simplejson ujson orjson

SETUP_TARGETS += setup-python
TEST_TARGETS  += test-python-cpython test-python-pypy
HELP_LINES += "make setup-python     both Python venvs: .venv-cpython (CPython 3.11) and .venv-pypy (PyPy 3)" \
              "make test-python      server-python unit + conformance tests on both interpreters, every usable codec" \
              "make serve-cpython    run server-python on CPython in the foreground (HOST= PORT= HEARTBEAT= JSON= NAIVE=1 SESSIONS=N COMPRESSION=permessage-deflate WORKERS=N BROKER=redis://...)" \
              "make serve-pypy       the same on PyPy"

.PHONY: setup-python test-python test-python-cpython test-python-pypy serve-cpython serve-pypy

setup-python: $(STAMPS)/python-cpython $(STAMPS)/python-pypy

# $(call py-install-venv,VENV,LABEL): the package (editable) with its test
# dependencies, then each codec on its own; a codec that does not install is
# skipped with one line, never failing setup. Binary wheels only for codecs:
# nothing is compiled (orjson has no PyPy build at all). One shell command, the
# INSTALL of venv-complete-or-redone (Makefile).
define py-install-venv
$(1)/bin/python -m pip install -q -c $(PY_CONSTRAINT) -e "$(PY_DIR)[test]" && \
for codec in $(PY_CODECS); do \
  if [ "$(2)" = pypy ] && [ "$$codec" = orjson ]; then \
    echo "note: orjson skipped on PyPy (orjson supports CPython only)"; continue; \
  fi; \
  if ! $(1)/bin/python -m pip install -q --only-binary :all: -c $(PY_CONSTRAINT) $$codec >/dev/null 2>&1; then \
    echo "note: $$codec skipped on $(2) (no binary wheel installs here)"; \
  fi; \
done
endef

$(STAMPS)/python-cpython: $(PY_SETUP_DEPS) | $(STAMPS)
	@echo ">> server-python: CPython venv in $(VENV_CPYTHON)"
	@command -v $(PY_CPYTHON) >/dev/null || { echo "sockbench needs $(PY_CPYTHON) on PATH" >&2; exit 1; }
	@$(call venv-complete-or-redone,$(VENV_CPYTHON),$(PY_CPYTHON),$(call py-install-venv,$(VENV_CPYTHON),cpython))
	@touch $@

$(STAMPS)/python-pypy: $(PY_SETUP_DEPS) | $(STAMPS)
	@echo ">> server-python: PyPy venv in $(VENV_PYPY)"
	@$(call ensure-debian,pypy3 -c 'import venv$(,) ensurepip',pypy3 pypy3-venv pypy3-dev)
	@$(call venv-complete-or-redone,$(VENV_PYPY),pypy3,$(call py-install-venv,$(VENV_PYPY),pypy))
	@touch $@

# $(call py-test,VENV): unit and server tests on that interpreter (the
# scale-out ones against a real redis-server, docs/contract/make.mk), then the
# server-agnostic conformance suite against its server once per usable codec
# (codecs installed but refused print why) and once in --naive mode with the
# default codec, all at once (CONFORMANCE_SET). Every run happens even if one
# fails; the status says whether any did.
define py-test
cd $(PY_DIR) && status=0 && \
impl=$$($(1)/bin/python -c 'import platform; print(platform.python_implementation())') && \
echo "--- $$impl: unit + server tests" && \
{ $(1)/bin/python -m pytest -q -p no:cacheprovider tests/unit tests/server || status=1; } && \
codecs=$$($(1)/bin/python -m sockbench_server.codec_report) && \
set -- && for codec in $$codecs; do \
  set -- "$$@" --run "$$impl: conformance, --json $$codec" "$(1)/bin/python -m sockbench_server --json $$codec"; \
done && \
{ $(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) "$$@" \
    --run "$$impl: conformance, --naive (json)" "$(1)/bin/python -m sockbench_server --naive" || status=1; } && \
exit $$status
endef

test-python: test-python-cpython test-python-pypy

test-python-cpython: $(STAMPS)/python-cpython setup-redis
	@$(call py-test,$(VENV_CPYTHON))

test-python-pypy: $(STAMPS)/python-pypy $(STAMPS)/python-cpython setup-redis
	@$(call py-test,$(VENV_PYPY))

# SESSIONS=N: --sessions N, the open-files check at start (README "Many sessions").
# COMPRESSION=permessage-deflate: --compression (docs/compression.md).
PY_SERVE_ARGS = --host $(HOST) --port $(PORT) --heartbeat $(HEARTBEAT) --json $(JSON) $(if $(NAIVE),--naive) \
                $(if $(SESSIONS),--sessions $(SESSIONS)) $(if $(filter-out none,$(COMPRESSION)),--compression $(COMPRESSION))

# WORKERS=N BROKER=redis://HOST:PORT/DB: scale-out (docs/contract/make.mk);
# WORKERS > 1 without BROKER runs under a private redis-server.
serve-cpython: $(STAMPS)/python-cpython $(SCALEOUT_SETUP)
	@exec $(call scaleout-command,$(VENV_CPYTHON)/bin/python -m sockbench_server $(PY_SERVE_ARGS))

serve-pypy: $(STAMPS)/python-pypy $(SCALEOUT_SETUP)
	@exec $(call scaleout-command,$(VENV_PYPY)/bin/python -m sockbench_server $(PY_SERVE_ARGS))

# make profile-server PY=pypy|cpython CONNECTIONS=1000 RATE=12000 [NAIVE=1] [SECONDS=15]:
# where our server's CPU goes at one fixed broadcast rate (tools/profile_broadcast.py;
# README "Where the CPU goes"). Installs the profiler into that venv first: vmprof
# on PyPy (py-spy cannot read PyPy's frames), py-spy on CPython. A measurement:
# run it alone on the machine.
PROFILE_PY     ?= $(if $(PY),$(PY),pypy)
PYSPY_VERSION  := 0.4.3
VMPROF_VERSION := 0.4.18.1
HELP_LINES += "make profile-server PY=pypy|cpython CONNECTIONS=N RATE=MSGS/S [NAIVE=1]   where our server's CPU goes at a fixed broadcast rate (vmprof / py-spy, Markdown tables)"

.PHONY: profile-server
$(STAMPS)/profiler-cpython: $(STAMPS)/python-cpython
	$(VENV_CPYTHON)/bin/python -m pip install -q py-spy==$(PYSPY_VERSION) && touch $@

$(STAMPS)/profiler-pypy: $(STAMPS)/python-pypy
	$(VENV_PYPY)/bin/python -m pip install -q vmprof==$(VMPROF_VERSION) && touch $@

profile-server: $(STAMPS)/profiler-$(PROFILE_PY) $(CLIENT_JAR)
	@test -n "$(CONNECTIONS)" -a -n "$(RATE)" || { echo "make profile-server needs CONNECTIONS= and RATE= (e.g. CONNECTIONS=1000 RATE=12000)" >&2; exit 2; }
	cd $(PY_DIR) && $(ROOT)/.venv-$(PROFILE_PY)/bin/python tools/profile_broadcast.py \
	  --connections $(CONNECTIONS) --rate $(RATE) $(if $(NAIVE),--naive) $(if $(SECONDS),--seconds $(SECONDS))
