# docs/contract: what several components share, so none of them reaches into
# another for it. Included by the top-level Makefile before every component's
# rules (they use the variables and macros below in their prerequisites),
# which defines ROOT, STAMPS and ensure-debian.
#
#   CONTRACT_DIR     docs/contract: the sockbench_contract package and the data tables
#   CONFORMANCE_DIR  the one SockJS conformance suite, run by every server's tests
#   CONFORMANCE_SET  runs that suite against several servers at once (run-conformance-set.sh)
#   CONFORMANCE_PYTHON  the interpreter running the suite: .venv-cpython's (needs $(STAMPS)/python-cpython)
#   REGISTRY         the server registry's make-facing CLI (bench's serve/bench rules, runtime installs)
#   make test-contract   the contract folder's own tests (READY cases, schema, layering)
#
# Scale-out (docs/scaling-out.md): the Redis that joins server processes into
# one broadcast domain, for `make serve-*` and the bench targets alike.
#
#   WORKERS=N   server worker processes (default 1: one process, no broker)
#   BROKER=URL  redis://HOST:PORT/DB of a Redis to join; when WORKERS > 1 and
#               BROKER is empty, serve-* starts a private redis-server on a free
#               loopback port for the life of the server
#               (sockbench_contract/private_redis.py, the same code the bench runner uses)
#   BROKER=private  that private redis-server even for WORKERS=1 (the "one
#               worker with a broker" case; bench-* start one per repetition)
#
# Websocket compression (docs/compression.md), for `make serve-*`, `make serve` and the bench alike:
#
#   COMPRESSION=none|permessage-deflate   RFC 7692 on the servers' websockets (--compression) and, in a
#               bench run, offered by every client session; the registry's `compression` knob says
#               which servers can (sockbench_contract/registry.py COMPRESSIONS: the values)
COMPRESSION ?= none

CONTRACT_DIR    := $(ROOT)/docs/contract
CONFORMANCE_DIR := $(CONTRACT_DIR)/conformance
CONFORMANCE_SET := $(CONTRACT_DIR)/run-conformance-set.sh
CONFORMANCE_PYTHON := $(ROOT)/.venv-cpython/bin/python
# What make asks the server registry (server-registry.json): list, installs,
# argv, requirement. The system python3: it runs before any venv exists.
REGISTRY        := python3 $(CONTRACT_DIR)/sockbench_contract/registry_cli.py

WORKERS ?= 1
BROKER  ?=

SETUP_TARGETS += setup-redis
TEST_TARGETS  += test-contract
HELP_LINES    += "make setup-redis      install Debian's redis-server (the scale-out broker; WORKERS= BROKER= on serve-*)" \
                 "make test-contract    docs/contract's tests: READY line cases, --list-profiles schema, the server registry, no server reaching into bench/"

.PHONY: setup-redis test-contract
# Debian's redis-server package; it brings redis-cli (redis-tools), checked
# too so a half-installed package is installed again.
setup-redis: $(STAMPS)/setup-redis
$(STAMPS)/setup-redis: | $(STAMPS)
	@$(call ensure-debian,command -v redis-server && command -v redis-cli,redis-server)
	@touch $@

# True (non-empty) when serve-*/bench-* must start their own redis-server.
PRIVATE_BROKER := $(if $(filter private,$(BROKER)),private,$(if $(BROKER),,$(filter-out 1,$(WORKERS))))
# The BROKER URL to pass as is (not the word "private").
BROKER_URL     := $(filter-out private,$(BROKER))

# $(call scaleout-command,SERVER-COMMAND): SERVER-COMMAND with the scale-out
# flags make was given. WORKERS=1 and no BROKER: unchanged (one process, as
# the benchmark rules want). BROKER given: --workers and --broker passed as is.
# WORKERS > 1 without BROKER: run under the private-Redis helper, which appends
# --broker redis://127.0.0.1:<free port>/0 and stops that Redis afterwards.
scaleout-command = $(strip \
  $(if $(BROKER_URL),$(1) --workers $(WORKERS) --broker $(BROKER_URL),\
  $(if $(PRIVATE_BROKER),python3 $(CONTRACT_DIR)/sockbench_contract/private_redis.py $(1) --workers $(WORKERS),$(1))))

# Prerequisite for serve-* targets: redis-server only when a private one is needed.
SCALEOUT_SETUP := $(if $(PRIVATE_BROKER),setup-redis)

# Standard library, pytest and jsonschema (the schema test): .venv-bench has
# both, and docs/make.mk uses it the same way. redis-server for the private
# Redis tests.
test-contract: $(STAMPS)/venv-bench $(STAMPS)/setup-redis
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider docs/contract/tests
