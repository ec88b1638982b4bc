# server-node: the broadcast app on sockjs-node (see server-node/README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS, HOST, PORT, HEARTBEAT.

NODE_DIR   := $(ROOT)/server-node
NODE_STAMP := $(STAMPS)/setup-node

SETUP_TARGETS += setup-node
TEST_TARGETS  += test-node
HELP_LINES    += "make serve-node       start the sockjs-node broadcast server in the foreground (HOST, PORT, HEARTBEAT, NAIVE=1, SESSIONS=N, COMPRESSION=permessage-deflate, WORKERS=N, BROKER=redis://..., PROXY=haproxy)"
HELP_LINES    += "make test-node        run the server-node tests (node --test against real server processes)"

# Node's current line, Bun and Deno (npm, pinned) for the registry's
# node26-*, bun-* and deno-* entries.
include $(NODE_DIR)/runtimes/make.mk

.PHONY: setup-node test-node serve-node node-modules-missing

setup-node: $(NODE_STAMP)

# npm ci installs exactly package-lock.json; re-run only when it (or package.json)
# changes, or when node_modules has gone missing behind the stamp's back.
NODE_INSTALLED := $(wildcard $(NODE_DIR)/node_modules/sockjs/package.json)
$(NODE_STAMP): $(NODE_DIR)/package-lock.json $(NODE_DIR)/package.json $(if $(NODE_INSTALLED),,node-modules-missing) | $(STAMPS)
	@command -v node >/dev/null || { echo "server-node needs Node >= 18 with npm: install nodejs and npm" >&2; exit 1; }
	@node -e 'const [M, m] = process.versions.node.split(".").map(Number); process.exit(M > 18 || (M === 18 && m >= 3) ? 0 : 1)' \
	  || { echo "server-node needs Node >= 18.3, found $$(node --version)" >&2; exit 1; }
	@# stderr: `make serve-node` must leave stdout to the server's READY line.
	@echo ">> server-node: npm ci" >&2
	@cd $(NODE_DIR) && npm ci --no-audit --no-fund >&2
	@touch $@

# node's test runner discovers every *.test.js under server-node (node_modules
# excluded) and ends with its usual summary (# tests / # pass / # fail).
# The scale-out tests start a real redis-server (setup-redis: docs/contract/make.mk).
test-node: setup-node setup-redis
	cd $(NODE_DIR) && node --test

# Silent recipe: stdout carries nothing but the server's READY line.
# NAIVE=1: the naive broadcast (one conn.write per message per recipient).
# SESSIONS=N: --sessions N, the open-files check at start (README "Many sessions").
# COMPRESSION=permessage-deflate: --compression (docs/compression.md).
# WORKERS=N BROKER=redis://HOST:PORT/DB: scale-out (docs/contract/make.mk); WORKERS > 1
# without BROKER starts a private redis-server for the life of the server;
# PROXY=haproxy runs WORKERS one-worker processes behind haproxy (every transport).
serve-node: setup-node $(SCALEOUT_SETUP)
	@exec $(call scaleout-command,node $(NODE_DIR)/broadcast.js --host $(HOST) --port $(PORT) --heartbeat $(HEARTBEAT) $(if $(NAIVE),--naive) $(if $(SESSIONS),--sessions $(SESSIONS)) $(if $(filter-out none,$(COMPRESSION)),--compression $(COMPRESSION)))

# The one SockJS conformance suite (docs/contract/conformance) against
# this server, once per broadcast mode, so both servers are held to one
# standard; sockjs-node's own documented deviations are strict xfails
# (tests/python-suite/sockjs_node_deviations.py). The harness takes the server
# command from SOCKBENCH_SERVER_CMD and appends --port 0.
TEST_TARGETS += test-conformance-node
HELP_LINES   += "make test-conformance-node   the Python SockJS conformance suite against sockjs-node, fast and naive"
.PHONY: test-conformance-node
# Fast and naive at once (CONFORMANCE_SET), each with sockjs-node's
# deviations as strict xfails (tests/python-suite).
NODE_CONFORMANCE_EXTRA = PYTHONPATH=$(NODE_DIR)/tests/python-suite -p sockjs_node_deviations
test-conformance-node: setup-node setup-python
	$(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) \
	  --run "conformance: sockjs-node, fast mode" "node $(NODE_DIR)/broadcast.js" $(NODE_CONFORMANCE_EXTRA) \
	  --run "conformance: sockjs-node, naive mode (--naive)" "node $(NODE_DIR)/broadcast.js --naive" $(NODE_CONFORMANCE_EXTRA)
