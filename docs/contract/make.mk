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
#   PROXY=haproxy   WORKERS one-worker processes, each on a port of its own with
#               --broker, behind Debian's haproxy on PORT, routing on the SockJS
#               session id: every transport, HTTP ones included
#               (sockbench_contract/proxy_front.py, which also refuses an unknown
#               PROXY or WORKERS=1 in one line, exit 2; docs/scaling-out.md)
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
PROXY   ?=

SETUP_TARGETS += setup-redis setup-haproxy
TEST_TARGETS  += test-contract
HELP_LINES    += "make setup-redis      install Debian's redis-server (the scale-out broker; WORKERS= BROKER= on serve-*)" \
                 "make setup-haproxy    install Debian's haproxy (PROXY=haproxy WORKERS=N on serve-* and bench-*: every transport on N processes)" \
                 "make test-contract    docs/contract's tests: READY line cases, --list-profiles schema, the server registry, no server reaching into bench/"

.PHONY: setup-redis setup-haproxy test-contract
# Debian's redis-server package; it brings redis-cli (redis-tools), checked
# too so a half-installed package is installed again.
setup-redis: $(STAMPS)/setup-redis
$(STAMPS)/setup-redis: | $(STAMPS)
	@$(call ensure-debian,command -v redis-server && command -v redis-cli,redis-server)
	@touch $@

# Debian's haproxy (PROXY=haproxy): `haproxy -v` must run, not only exist, so a
# broken install is installed again. The Debian service it ships is not used
# (nor started here: no init system); proxy_front.py runs its own haproxy per
# server start, with a configuration it writes to a temporary directory.
setup-haproxy: $(STAMPS)/setup-haproxy
$(STAMPS)/setup-haproxy: | $(STAMPS)
	@$(call ensure-debian,haproxy -v,haproxy)
	@touch $@

# True (non-empty) when serve-*/bench-* must start their own redis-server.
PRIVATE_BROKER := $(if $(filter private,$(BROKER)),private,$(if $(BROKER),,$(filter-out 1,$(WORKERS))))
# The BROKER URL to pass as is (not the word "private").
BROKER_URL     := $(filter-out private,$(BROKER))

# The front that runs WORKERS one-worker processes behind PROXY (system python3:
# standard library only); it checks PROXY/WORKERS itself, the one place.
PROXY_FRONT := python3 $(CONTRACT_DIR)/sockbench_contract/proxy_front.py

# $(call scaleout-command,SERVER-COMMAND): SERVER-COMMAND with the scale-out
# flags make was given. WORKERS=1 and no BROKER: unchanged (one process, as
# the benchmark rules want). PROXY given: the proxy front runs WORKERS copies
# of SERVER-COMMAND behind it, joined by BROKER or a private redis-server it
# starts itself. BROKER given: --workers and --broker passed as is.
# WORKERS > 1 without BROKER: run under the private-Redis helper, which appends
# --broker redis://127.0.0.1:<free port>/0 and stops that Redis afterwards.
scaleout-command = $(strip \
  $(if $(PROXY),$(PROXY_FRONT) --proxy '$(PROXY)' --workers '$(WORKERS)' --broker $(or $(BROKER_URL),private) -- $(1),\
  $(if $(BROKER_URL),$(1) --workers $(WORKERS) --broker $(BROKER_URL),\
  $(if $(PRIVATE_BROKER),python3 $(CONTRACT_DIR)/sockbench_contract/private_redis.py $(1) --workers $(WORKERS),$(1)))))

# Prerequisite for serve-* and bench-* targets: redis-server only when a
# private one is needed, haproxy only with PROXY=haproxy (an unknown PROXY is
# refused by the front or the runner, in one line).
SCALEOUT_SETUP := $(if $(PRIVATE_BROKER),setup-redis) $(if $(filter haproxy,$(PROXY)),setup-haproxy)

# Standard library, pytest and jsonschema (the schema test): .venv-bench has
# both, and docs/make.mk uses it the same way. redis-server for the private
# Redis tests; haproxy and server-python's CPython venv for the proxy front's
# end-to-end test (two real one-worker servers behind a real haproxy, joined
# by a real Redis).
test-contract: $(STAMPS)/venv-bench $(STAMPS)/setup-redis $(STAMPS)/setup-haproxy $(STAMPS)/python-cpython
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider docs/contract/tests
