# server-python on the newer CPythons found under pyenv (3.12, 3.13): the same
# package, pins and conformance suite as .venv-cpython (CPython 3.11), one venv
# each, for the registry's cpython3.12-* and cpython3.13-* entries.
#
#   make setup-python-runtimes   .venv-cpython3.12 and .venv-cpython3.13 where the interpreter is present
#   make test-python-runtimes    the conformance suite against each, fast and --naive
#
# The exact interpreter is the server registry's requirement of the same name
# (docs/contract/server-registry.json: `pyenv prefix 3.12.1`), its one place; where it
# is missing, setup and tests say so in one line and go on.

PY_RUNTIMES := cpython3.12 cpython3.13

SETUP_TARGETS += setup-python-runtimes
TEST_TARGETS  += test-python-runtimes
HELP_LINES    += "make setup-python-runtimes   venvs of server-python on CPython 3.12 and 3.13 (pyenv), where present" \
                 "make test-python-runtimes    conformance suite against server-python on CPython 3.12 and 3.13, fast and naive"

.PHONY: setup-python-runtimes test-python-runtimes

# One rule for both: the stem is the minor version (python-cpython3.12 -> 12).
# Interrupt-safe as every venv (venv-complete-or-redone, Makefile).
$(STAMPS)/python-cpython3.%: $(PY_SETUP_DEPS) | $(STAMPS)
	@echo ">> server-python: CPython 3.$* venv in $(ROOT)/.venv-cpython3.$*"
	@home=$$($(REGISTRY) requirement cpython3.$*) && \
	  $(call venv-complete-or-redone,$(ROOT)/.venv-cpython3.$*,$$home/bin/python3,$(call py-install-venv,$(ROOT)/.venv-cpython3.$*,cpython))
	@touch $@

setup-python-runtimes:
	@for rt in $(PY_RUNTIMES); do \
	  if why=$$($(REGISTRY) requirement $$rt 2>&1 >/dev/null); then \
	    $(MAKE) -s -C $(ROOT) $(STAMPS)/python-$$rt; \
	  else \
	    echo "note: .venv-$$rt not made: $$why"; \
	  fi; \
	done

# The server-agnostic conformance suite (docs/contract/conformance) against each
# runtime's server in both broadcast modes, all runs at once (CONFORMANCE_SET);
# every run happens even if one fails, and the status says whether any did.
test-python-runtimes: setup-python-runtimes setup-redis $(STAMPS)/python-cpython
	@set --; \
	for rt in $(PY_RUNTIMES); do \
	  if ! why=$$($(REGISTRY) requirement $$rt 2>&1 >/dev/null); then \
	    echo "--- $$rt: conformance skipped: $$why"; continue; \
	  fi; \
	  venv=$(ROOT)/.venv-$$rt; \
	  version=$$($$venv/bin/python -c 'import platform; print(platform.python_version())'); \
	  for mode in "" --naive; do \
	    set -- "$$@" --run "$$rt ($$version): conformance$${mode:+, $$mode}" "$$venv/bin/python -m sockbench_server $$mode"; \
	  done; \
	done; \
	if [ $$# -eq 0 ]; then exit 0; fi; \
	cd $(PY_DIR) && $(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) "$$@"
