# bench/: end-to-end benchmark runs, the sockjs-tornado peer, result comparison.
# Included by the top-level Makefile.

SERVER_CPU ?= 0
CLIENT_CPU ?=
PROFILE    ?= standard
LEVELS     ?=
TRANSPORT  ?= sockjs
# Extra client flags for custom sweeps, e.g. CLIENT_ARGS='--step 1 --rate-factor 1.5'.
CLIENT_ARGS ?=
export CLIENT_ARGS

BENCH_PY   := $(ROOT)/.venv-bench/bin/python
RUN_BENCH   = $(BENCH_PY) $(ROOT)/bench/run_bench.py --profile $(PROFILE) --server-cpu $(SERVER_CPU) \
              --port $(PORT) --host $(HOST) --heartbeat $(HEARTBEAT) --transport $(TRANSPORT) \
              $(if $(CLIENT_CPU),--client-cpu $(CLIENT_CPU)) $(if $(LEVELS),--levels $(LEVELS))
PY_KNOBS    = --json $(JSON) $(if $(NAIVE),--naive)

SETUP_TARGETS += setup-bench
TEST_TARGETS  += test-bench
HELP_LINES += "make bench-pypy       benchmark our server on PyPy (PROFILE=smoke|quick|standard|legacy|full, LEVELS=, JSON=, NAIVE=1, SERVER_CPU=, CLIENT_CPU=, PORT=)" \
              "make bench-cpython    the same on CPython" \
              "make bench-node       benchmark sockjs-node" \
              "make bench            all three, then make site" \
              "make bench-peer-sockjs-tornado   the original sockjs-tornado 1.0.7 (peer) on CPython and PyPy" \
              "make compare A=x.json B=y.json  Markdown table comparing two result files"

# After a run: rebuild the page and say where everything is.
define bench-finish
@$(MAKE) site
@echo "results: $(ROOT)/results/ (newest: $$(ls -t $(ROOT)/results/*.json | head -1))"
@echo "page:    $(ROOT)/site/dist/index.html (copy site/dist/ to any static host to publish)"
endef

# .venv-bench: CPython tools for checking and comparing results.
setup-bench: $(STAMPS)/venv-bench
$(STAMPS)/venv-bench: bench/requirements.txt | $(STAMPS)
	python3.11 -m venv $(ROOT)/.venv-bench
	$(ROOT)/.venv-bench/bin/pip install -q --disable-pip-version-check -r bench/requirements.txt
	@touch $@

# The peer gets venvs of its own so none of our code is importable next to it.
$(STAMPS)/venv-peer-cpython: bench/peers/sockjs_tornado/requirements.txt | $(STAMPS)
	python3.11 -m venv $(ROOT)/.venv-peer-cpython
	$(ROOT)/.venv-peer-cpython/bin/pip install -q --disable-pip-version-check -r $<
	@touch $@
$(STAMPS)/venv-peer-pypy: bench/peers/sockjs_tornado/requirements.txt | $(STAMPS)
	@$(call ensure-debian,pypy3 -c 'import venv$(,) ensurepip',pypy3 pypy3-venv pypy3-dev)
	pypy3 -m venv $(ROOT)/.venv-peer-pypy
	$(ROOT)/.venv-peer-pypy/bin/pip install -q --disable-pip-version-check -r $<
	@touch $@

.PHONY: setup-bench test-bench bench bench-pypy bench-cpython bench-node bench-peer-sockjs-tornado compare
test-bench: setup-bench $(STAMPS)/venv-peer-cpython
	cd $(ROOT) && $(BENCH_PY) -m pytest -q bench/tests

bench-pypy bench-cpython: bench-%: setup
	$(RUN_BENCH) --server $* $(PY_KNOBS)
	$(bench-finish)

bench-node: setup
	$(RUN_BENCH) --server node
	$(bench-finish)

bench-peer-sockjs-tornado: setup $(STAMPS)/venv-peer-cpython $(STAMPS)/venv-peer-pypy
	$(RUN_BENCH) --server peer-sockjs-tornado-cpython
	$(RUN_BENCH) --server peer-sockjs-tornado-pypy
	$(bench-finish)

bench: setup
	$(RUN_BENCH) --server pypy $(PY_KNOBS)
	$(RUN_BENCH) --server cpython $(PY_KNOBS)
	$(RUN_BENCH) --server node
	$(bench-finish)

compare: setup-bench
	@if [ -z "$(A)" ] || [ -z "$(B)" ]; then echo "usage: make compare A=results/x.json B=results/y.json" >&2; exit 2; fi
	@$(BENCH_PY) $(ROOT)/bench/compare.py $(A) $(B)
