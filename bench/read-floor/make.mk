# bench/read-floor: what one read per copy costs a receiver on this host, the
# floor under any load generator's cost against a naive server
# (bench/read-floor/README.md). Included by the top-level Makefile (ROOT,
# STAMPS, ensure-debian).
#
#   make read-floor         build bench/read-floor/bin/read-floor (gcc)
#   make bench-read-floor   run it at LEVELS x RATES (defaults: 1000,2000 x 100000,150000,190000), one line each
#   make test-read-floor    its tests (a few seconds of light load)

READ_FLOOR_DIR := $(ROOT)/bench/read-floor
READ_FLOOR_BIN := $(READ_FLOOR_DIR)/bin/read-floor
# -O2: the floor must be what an ordinary optimised build reaches.
READ_FLOOR_CFLAGS ?= -O2 -g -std=gnu11 -Wall -Wextra
# Connections and copies/s of `make bench-read-floor`: the naive servers'
# saturation at 1,000 and 2,000 clients lies at 100-260 k copies/s on this VM.
READ_FLOOR_LEVELS ?= $(if $(LEVELS),$(LEVELS),1000,2000)
READ_FLOOR_RATES  ?= $(if $(RATES),$(RATES),100000,150000,190000)

SETUP_TARGETS += read-floor
TEST_TARGETS  += test-read-floor
HELP_LINES    += "make bench-read-floor  the host's floor for a client's cost per copy against a naive server: a C sender (core SERVER_CPU) and epoll receiver (core CLIENT_CPU), one read per copy (LEVELS=, RATES=)"

.PHONY: read-floor bench-read-floor test-read-floor

read-floor: $(READ_FLOOR_BIN)

# Built under a temporary name and renamed: a stopped build never leaves a
# half-written binary that make would take as up to date.
$(READ_FLOOR_BIN): $(READ_FLOOR_DIR)/read_floor.c
	@$(call ensure-debian,command -v gcc,gcc)
	@mkdir -p $(@D)
	@tmp=$(@D)/.read-floor.$$$$.tmp; trap 'rm -f "$$tmp"' EXIT; \
	  gcc $(READ_FLOOR_CFLAGS) -o "$$tmp" $< && mv -f "$$tmp" $@

# One benchmark at a time on this machine: nothing else should run meanwhile.
bench-read-floor: $(READ_FLOOR_BIN)
	@for n in $$(echo $(READ_FLOOR_LEVELS) | tr , ' '); do \
	  for r in $$(echo $(READ_FLOOR_RATES) | tr , ' '); do \
	    $(READ_FLOOR_BIN) --connections $$n --rate $$r --sender-cpu $(SERVER_CPU) --receiver-cpu $(or $(CLIENT_CPU),1) || exit $$?; \
	  done; \
	done

test-read-floor: $(READ_FLOOR_BIN) $(STAMPS)/venv-bench
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q -p no:cacheprovider $(READ_FLOOR_DIR)/tests
