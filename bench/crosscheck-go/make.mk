# bench/crosscheck-go: an independent Go load generator (gorilla/websocket) that
# cross-checks client-java's saturation figures (see bench/crosscheck-go/README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS and ensure-debian.
#
#   make crosscheck-go URL=http://127.0.0.1:8099 LEVELS=1000 SERVER_PID=1234
#   make crosscheck-go URL=... LEVELS=100 RATES=20000,40000,60000
#
# URL, LEVELS, SERVER_PID and CLIENT_CPU are shared with bench/make.mk, which
# may define LEVELS and CLIENT_CPU as empty: the defaults below apply then.

XCHECK_DIR := $(ROOT)/bench/crosscheck-go
XCHECK_BIN := $(XCHECK_DIR)/bin/crosscheck-go
XCHECK_SRCS := $(wildcard $(XCHECK_DIR)/*.go) $(XCHECK_DIR)/go.mod $(XCHECK_DIR)/go.sum
GO ?= go
URL        ?=
SERVER_PID ?=
# Explicit points (comma list of total send rates, msgs/s); empty = ramp.
RATES      ?=
START_RATE ?= 1000
FACTOR     ?= 1.25
MAX_RATE   ?= 1000000
# Anything else, e.g. XCHECK_ARGS='--window 3 --size 64'.
XCHECK_ARGS ?=

TEST_TARGETS += test-crosscheck-go
HELP_LINES   += "make crosscheck-go    independent Go load generator vs a running server (URL=http://127.0.0.1:PORT, LEVELS=1000, SERVER_PID=, RATES= or START_RATE=/FACTOR=/MAX_RATE=, CLIENT_CPU=1)" \
                "make test-crosscheck-go  go test of the cross-check's SockJS frame scanner"

.PHONY: crosscheck-go test-crosscheck-go

# Go >= 1.19: Debian 12's golang-go is enough; installed as root when missing.
define go-check
@$(call ensure-debian,command -v $(GO),golang-go)
endef

# -buildvcs=false: the binary does not need git metadata, and stamping it fails
# in checkouts owned by another user. Built beside, then renamed over the old
# binary: a stopped build leaves no half-written binary that looks up to date.
$(XCHECK_BIN): $(XCHECK_SRCS)
	$(go-check)
	cd $(XCHECK_DIR) && $(GO) build -buildvcs=false -o bin/crosscheck-go.partial . && mv -f bin/crosscheck-go.partial bin/crosscheck-go

test-crosscheck-go:
	$(go-check)
	cd $(XCHECK_DIR) && $(GO) vet ./... && $(GO) test -count=1 ./...

crosscheck-go: $(XCHECK_BIN)
	@test -n "$(URL)" || { echo "make crosscheck-go needs URL=http://127.0.0.1:PORT (a running server's READY URL)" >&2; exit 2; }
	taskset -c $(or $(CLIENT_CPU),1) $(XCHECK_BIN) --url $(URL) --levels $(or $(LEVELS),1000) \
	  $(if $(SERVER_PID),--server-pid $(SERVER_PID)) \
	  $(if $(RATES),--rates $(RATES),--start-rate $(START_RATE) --factor $(FACTOR) --max-rate $(MAX_RATE)) \
	  $(XCHECK_ARGS)
