# bench/limit-server: the machine's limit for the /broadcast websocket
# contract, a minimal epoll server in C (see bench/limit-server/README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS,
# ensure-debian and (docs/contract/make.mk) CONFORMANCE_SET and CONFORMANCE_PYTHON.
#
#   make limit-server              build bench/limit-server/bin/limit-server (gcc, libcrypto)
#   make serve SERVER=limit-fast   run it (limit-naive: --naive)
#   make test-limit-server         the websocket part of the conformance suite, fast and naive, and its own tests (< 1 min)
#   make test-limit-server-sweep   one smoke sweep of both modes through the bench (about a minute of real load)

LIMIT_DIR    := $(ROOT)/bench/limit-server
LIMIT_BIN    := $(LIMIT_DIR)/bin/limit-server
LIMIT_SRCS   := $(wildcard $(LIMIT_DIR)/*.c)
LIMIT_HDRS   := $(wildcard $(LIMIT_DIR)/*.h)
LIMIT_CC     ?= gcc
# -O2 -g: the limit must be what an ordinary optimised build reaches, and a
# profile of it must have symbols. gnu11 and _GNU_SOURCE for accept4 and
# signalfd (Linux, as epoll is).
LIMIT_CFLAGS ?= -O2 -g -std=gnu11 -D_GNU_SOURCE -Wall -Wextra
LIMIT_LIBS   := -lcrypto
# The conformance suite's scope plugin lives beside the server's tests.
LIMIT_CONFORMANCE_SCOPE = PYTHONPATH=$(LIMIT_DIR)/tests -p limit_conformance_scope

SETUP_TARGETS += limit-server
TEST_TARGETS  += test-limit-server test-limit-server-sweep
HELP_LINES    += "make limit-server     build the C limit server (bench/limit-server/bin/limit-server; SERVERS=limit-naive,limit-fast benchmarks it)" \
                 "make test-limit-server   the websocket part of the SockJS conformance suite against the limit server (fast and --naive) and its own tests" \
                 "make test-limit-server-sweep   one smoke sweep of limit-naive and limit-fast (make bench SERVERS=limit-naive,limit-fast PROFILE=smoke)"

.PHONY: limit-server test-limit-server test-limit-server-sweep

limit-server: $(LIMIT_BIN)

# Built under a temporary name and renamed: a stopped build never leaves a
# half-written binary that make would take as up to date. Output to stderr:
# `make serve` keeps stdout for the READY line.
$(LIMIT_BIN): $(LIMIT_SRCS) $(LIMIT_HDRS)
	@$(call ensure-debian,command -v $(LIMIT_CC) && test -e /usr/include/openssl/sha.h,gcc libssl-dev)
	@echo ">> limit-server: $(LIMIT_CC) $(LIMIT_CFLAGS)" >&2
	@mkdir -p $(@D)
	@tmp=$(@D)/.limit-server.$$$$.tmp; trap 'rm -f "$$tmp"' EXIT; \
	  $(LIMIT_CC) $(LIMIT_CFLAGS) -o "$$tmp" $(LIMIT_SRCS) $(LIMIT_LIBS) >&2 && mv -f "$$tmp" $@

# The shared suite (docs/contract/conformance) as for every server, both modes
# at once (CONFORMANCE_SET), narrowed to what this server serves by
# tests/limit_conformance_scope.py (which says what is left out and why); then
# the server's own tests.
test-limit-server: $(LIMIT_BIN) $(STAMPS)/venv-bench $(STAMPS)/python-cpython
	$(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) \
	  --run "conformance (websocket part): limit server, fast mode" "$(LIMIT_BIN)" $(LIMIT_CONFORMANCE_SCOPE) \
	  --run "conformance (websocket part): limit server, naive mode (--naive)" "$(LIMIT_BIN) --naive" $(LIMIT_CONFORMANCE_SCOPE)
	@echo ">> limit server's own tests"
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider $(LIMIT_DIR)/tests \
	  --ignore=$(LIMIT_DIR)/tests/test_limit_smoke_sweep.py

# Real load through the bench runner (the result goes to a temporary folder).
test-limit-server-sweep: $(LIMIT_BIN) $(STAMPS)/venv-bench $(CLIENT_JAR)
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider $(LIMIT_DIR)/tests/test_limit_smoke_sweep.py
