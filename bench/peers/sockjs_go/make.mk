# bench/peers/sockjs_go: sockjs-go v3 (Go) as a peer behind docs/protocol.md
# (see bench/peers/sockjs_go/README.md). Included by the top-level Makefile,
# which defines ROOT, STAMPS and ensure-debian.
#
#   make peer-sockjs-go        build the server binary (Go toolchain; modules from go.sum)
#   make test-peer-sockjs-go   go vet + go test, the shared conformance suite against it, one smoke sweep

SOCKJS_GO_DIR  := $(ROOT)/bench/peers/sockjs_go
SOCKJS_GO_BIN  := $(SOCKJS_GO_DIR)/bin/sockjs-go-peer
SOCKJS_GO_SRCS := $(filter-out %_test.go,$(wildcard $(SOCKJS_GO_DIR)/*.go)) $(SOCKJS_GO_DIR)/go.mod $(SOCKJS_GO_DIR)/go.sum
GO ?= go

SETUP_TARGETS += peer-sockjs-go
TEST_TARGETS  += test-peer-sockjs-go
HELP_LINES    += "make peer-sockjs-go   build the sockjs-go v3 peer server (bench/peers/sockjs_go/bin/sockjs-go-peer)" \
                 "make test-peer-sockjs-go   go vet/test of the sockjs-go peer, the SockJS conformance suite against it, a smoke sweep (make bench SERVERS=sockjs-go PROFILE=smoke)"

.PHONY: peer-sockjs-go test-peer-sockjs-go

peer-sockjs-go: $(SOCKJS_GO_BIN)

# Built under a temporary name and renamed: an interrupted build never leaves a
# half-written file at the target's path for make to take as up to date.
# -buildvcs=false: the binary needs no git metadata, and stamping it fails in
# checkouts owned by another user. Output to stderr: `make serve` keeps stdout
# for the server's READY line.
$(SOCKJS_GO_BIN): $(SOCKJS_GO_SRCS)
	@$(call ensure-debian,command -v $(GO),golang-go)
	@echo ">> sockjs-go peer: go build" >&2
	@mkdir -p $(@D)
	@tmp=$(@D)/.sockjs-go-peer.$$$$.tmp; trap 'rm -f "$$tmp"' EXIT; \
	  cd $(SOCKJS_GO_DIR) && $(GO) build -buildvcs=false -o "$$tmp" . >&2 && mv -f "$$tmp" $@

# The one conformance suite (docs/contract/conformance), as for
# server-node; sockjs-go's own deviations are strict xfails in
# sockjs_go_deviations.py beside this file. The suite appends --port 0.
#
# Then one smoke sweep through the server registry (tests/test_smoke_sweep.py:
# about 25 s of real load; the result goes to a temporary folder).
test-peer-sockjs-go: $(SOCKJS_GO_BIN) $(STAMPS)/python-cpython $(STAMPS)/venv-bench $(CLIENT_JAR)
	@$(call ensure-debian,command -v $(GO),golang-go)
	cd $(SOCKJS_GO_DIR) && $(GO) vet ./... && $(GO) test -count=1 ./...
	$(CONFORMANCE_SET) $(CONFORMANCE_PYTHON) \
	  --run "conformance: sockjs-go peer" "$(SOCKJS_GO_BIN)" PYTHONPATH=$(SOCKJS_GO_DIR) -p sockjs_go_deviations
	@echo ">> smoke sweep: sockjs-go peer"
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider bench/peers/sockjs_go/tests
