# bench/sockjs-client-check: the official sockjs-client, in headless Chromium,
# against every server of docs/contract/server-registry.json installed here (README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS and ensure-debian.

SOCKJS_CLIENT_CHECK_DIR   := $(ROOT)/bench/sockjs-client-check
SOCKJS_CLIENT_CHECK_STAMP := $(STAMPS)/setup-sockjs-client-check

SETUP_TARGETS += setup-sockjs-client-check
TEST_TARGETS  += test-sockjs-client test-sockjs-client-proxy
HELP_LINES    += "make test-sockjs-client   sockjs-client 1.x in headless Chromium, every transport against every installed registry server (SERVERS=a,b to pick; PROXY=haproxy: each server with workers as 2 processes behind haproxy)" \
                 "make test-sockjs-client-proxy   the same through PROXY=haproxy, for SERVERS (default cpython-fast): all 8 transports routed by session"

.PHONY: setup-sockjs-client-check test-sockjs-client test-sockjs-client-proxy

# sockjs-client, exactly as package-lock.json pins it; the browser comes with
# the site's setup (Debian's chromium and playwright-core), whose launcher
# (site/tools/chromium.js) the check uses.
setup-sockjs-client-check: $(SOCKJS_CLIENT_CHECK_STAMP) setup-site

# npm ci deletes node_modules before installing, and the stamp is written only
# after it succeeded: a stopped install is redone by the next make.
$(SOCKJS_CLIENT_CHECK_STAMP): $(SOCKJS_CLIENT_CHECK_DIR)/package.json $(SOCKJS_CLIENT_CHECK_DIR)/package-lock.json | $(STAMPS)
	@command -v node >/dev/null || { echo "the sockjs-client check needs Node >= 18 with npm: install nodejs and npm" >&2; exit 1; }
	cd $(SOCKJS_CLIENT_CHECK_DIR) && npm ci --no-audit --no-fund
	@touch $@

# Servers that are not installed are skipped with one line each (make setup
# installs the default group; make install-server SERVER=<name> any other).
# PROXY=haproxy: the servers that have workers run behind haproxy, joined by a
# private redis-server (both installed first), the others are skipped with why.
test-sockjs-client: setup-sockjs-client-check $(if $(PROXY),$(STAMPS)/setup-haproxy $(STAMPS)/setup-redis)
	cd $(SOCKJS_CLIENT_CHECK_DIR) && node --test lib/*.test.js
	cd $(SOCKJS_CLIENT_CHECK_DIR) && node check.js $(if $(SERVERS),--servers $(SERVERS)) $(if $(PROXY),--proxy '$(PROXY)')

# The check through haproxy in `make test`: our server on CPython (the quickest
# to start), two one-worker processes and a private redis-server behind it.
test-sockjs-client-proxy: setup-sockjs-client-check $(STAMPS)/setup-haproxy $(STAMPS)/setup-redis $(STAMPS)/python-cpython
	cd $(SOCKJS_CLIENT_CHECK_DIR) && node check.js --proxy haproxy --servers $(or $(SERVERS),cpython-fast)
