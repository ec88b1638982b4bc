# server-node on the other JavaScript runtimes: Node's current line, Bun and
# Deno, npm packages pinned exactly in server-node/runtimes/package.json (+ its
# lock), for the registry's node26-*, bun-* and deno-* entries
# (docs/contract/server-registry.json). Included by server-node/make.mk.
#
#   make setup-js-runtimes   npm ci in server-node/runtimes, then check each binary runs
#   make test-js-runtimes    the conformance suite against server-node on each, fast and naive

JS_RUNTIMES_DIR   := $(NODE_DIR)/runtimes
JS_RUNTIMES_STAMP := $(STAMPS)/setup-js-runtimes
# Registry entries served by these runtimes, in the order the tests run them.
JS_RUNTIME_ENTRIES := node26-fast node26-naive bun-fast bun-naive deno-fast deno-naive

SETUP_TARGETS += setup-js-runtimes
TEST_TARGETS  += test-js-runtimes
HELP_LINES    += "make setup-js-runtimes   Node 26, Bun and Deno from npm (pinned, server-node/runtimes) for the node26-/bun-/deno- servers" \
                 "make test-js-runtimes    conformance suite against server-node on Node 26, Bun and Deno, fast and naive"

.PHONY: setup-js-runtimes test-js-runtimes js-runtimes-missing

# npm ci deletes node_modules before installing and the stamp is touched only
# after every binary has answered with its pinned version (check.js), so an
# install stopped anywhere is redone by the next make; so is one whose
# binaries have gone missing behind the stamp's back.
JS_RUNTIME_BINS := $(addprefix $(JS_RUNTIMES_DIR)/node_modules/.bin/,node bun deno)
$(JS_RUNTIMES_STAMP): $(JS_RUNTIMES_DIR)/package.json $(JS_RUNTIMES_DIR)/package-lock.json \
                      $(if $(filter-out $(wildcard $(JS_RUNTIME_BINS)),$(JS_RUNTIME_BINS)),js-runtimes-missing) | $(STAMPS)
	@command -v npm >/dev/null || { echo "server-node/runtimes needs npm (Debian package npm): sudo apt-get install npm" >&2; exit 1; }
	@# stderr: `make serve SERVER=bun-fast` must leave stdout to the server's READY line.
	@echo ">> server-node/runtimes: npm ci (Node, Bun, Deno)" >&2
	@cd $(JS_RUNTIMES_DIR) && npm ci --no-audit --no-fund >&2 \
	  || { echo "server-node/runtimes: npm ci failed (output above); check that registry.npmjs.org is reachable, then make setup-js-runtimes" >&2; exit 1; }
	@node $(JS_RUNTIMES_DIR)/check.js
	@touch $@

# Part of `make setup`, but a machine where npm has no binary for one of the
# runtimes still sets up everything else: one line says what is missing, and
# test-js-runtimes skips what does not run.
setup-js-runtimes:
	@$(MAKE) -s -C $(ROOT) $(JS_RUNTIMES_STAMP) \
	  || echo "note: server-node/runtimes not (fully) installed: see the line above; its servers are skipped"

# The one conformance suite (docs/contract/conformance) against each
# entry, launched exactly as the registry says (runtimes/launch.py), with
# sockjs-node's deviations and the runtime's own (SOCKBENCH_JS_RUNTIME) as
# strict xfails (tests/python-suite). The fast entry gets the whole suite; the
# naive one the cases where the broadcast algorithm matters (delivery, bad
# frames, the goodbye). The runs go at once (CONFORMANCE_SET). An entry
# whose runtime does not run here is skipped with the reason. Every run
# happens even if one fails; the status says whether any did.
JS_RUNTIME_NAIVE_CASES := Broadcast or stop_closes or bad_frame
test-js-runtimes: setup-node setup-python setup-js-runtimes
	@set --; \
	for entry in $(JS_RUNTIME_ENTRIES); do \
	  prefix=$${entry%-*}; runtime=$${prefix%26}; \
	  if ! why=$$(node $(JS_RUNTIMES_DIR)/check.js $$runtime 2>&1); then \
	    echo "--- $$entry: conformance skipped: $$why"; continue; \
	  fi; \
	  launch=$$(python3 $(JS_RUNTIMES_DIR)/launch.py $$entry) || { status=1; continue; }; \
	  set -- "$$@" --run; \
	  case $$entry in \
	    *-naive) set -- "$$@" "$$entry: conformance, broadcast cases" "$$launch" -k "$(JS_RUNTIME_NAIVE_CASES)";; \
	    *) set -- "$$@" "$$entry: conformance, whole suite" "$$launch";; \
	  esac; \
	  set -- "$$@" SOCKBENCH_JS_RUNTIME=$$prefix PYTHONPATH=$(NODE_DIR)/tests/python-suite -p sockjs_node_deviations; \
	done; \
	if [ $$# -gt 0 ]; then \
	  cd $(ROOT)/server-python && $(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) "$$@" || status=1; \
	fi; \
	exit $${status:-0}
