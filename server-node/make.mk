# server-node: the broadcast app on sockjs-node (see server-node/README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS, HOST, PORT, HEARTBEAT.

NODE_DIR   := $(ROOT)/server-node
NODE_STAMP := $(STAMPS)/setup-node

SETUP_TARGETS += setup-node
TEST_TARGETS  += test-node
HELP_LINES    += "make serve-node       start the sockjs-node broadcast server in the foreground (HOST, PORT, HEARTBEAT)"
HELP_LINES    += "make test-node        run the server-node tests (node --test against real server processes)"

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
test-node: setup-node
	cd $(NODE_DIR) && node --test

# Silent recipe: stdout carries nothing but the server's READY line.
serve-node: setup-node
	@exec node $(NODE_DIR)/broadcast.js --host $(HOST) --port $(PORT) --heartbeat $(HEARTBEAT)

# The Python conformance suite (server-python/tests/conformance) against this
# server too, so both servers are held to one standard; sockjs-node's own
# documented deviations are strict xfails (tests/python-suite/sockjs_node_deviations.py).
TEST_TARGETS += test-conformance-node
HELP_LINES   += "make test-conformance-node   the Python SockJS conformance suite against sockjs-node"
.PHONY: test-conformance-node
test-conformance-node: setup-node setup-python
	cd $(ROOT)/server-python && SOCKBENCH_SERVER_CMD="node $(NODE_DIR)/broadcast.js" \
	  PYTHONPATH=$(NODE_DIR)/tests/python-suite \
	  $(ROOT)/.venv-cpython/bin/python -m pytest -q -p sockjs_node_deviations tests/conformance
