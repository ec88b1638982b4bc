# sockbench — one Makefile drives everything.
#
#   make test          install what is missing, then run every component's tests
#   make setup         install only (venvs, node_modules, the client jar); idempotent
#   make help          list the targets
#
# Each component owns its rules in <component>/make.mk and registers its
# setup and test targets in SETUP_TARGETS / TEST_TARGETS, so adding a piece
# never means editing another piece's rules. Steps are skipped when their
# inputs have not changed: each writes a stamp file under .stamps/.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

ROOT   := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
STAMPS := $(ROOT)/.stamps

# Knobs shared by the serve-* and bench-* targets (see docs/protocol.md).
HOST      ?= 127.0.0.1
PORT      ?= 8080
HEARTBEAT ?= 25
JSON      ?= json
NAIVE     ?=

SETUP_TARGETS :=
TEST_TARGETS  :=
HELP_LINES    :=

# $(call ensure-debian,CHECK-COMMAND,PACKAGES): run CHECK-COMMAND; if it fails,
# install PACKAGES with apt-get when we are root, otherwise stop with one line
# saying what to install. Used for pypy3 and chromium, which PyPI/npm cannot give us.
define ensure-debian
if ! ( $(1) ) >/dev/null 2>&1; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo ">> installing Debian packages: $(2)"; \
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
  else \
    echo "sockbench needs the Debian packages '$(2)': run 'sudo apt-get install $(2)' and try again" >&2; exit 1; \
  fi; \
fi
endef

$(STAMPS):
	@mkdir -p $@

# A comma for $(call ...) arguments that need one.
, := ,

include $(wildcard bench/broker/make.mk server-python/make.mk server-node/make.mk client-java/make.mk site/make.mk bench/make.mk bench/crosscheck-go/make.mk)

.PHONY: help setup test clean
help:
	@echo "sockbench targets:"
	@echo "  make setup            install everything the project needs (idempotent)"
	@echo "  make test             setup, then run every component's tests"
	@printf '  %s\n' $(HELP_LINES)
	@echo "  make clean            remove installs and build outputs (.venv-*, node_modules, target, site/dist, .stamps)"

setup: $(SETUP_TARGETS)

# Every component's tests run even when an earlier one fails; the summary says
# which failed and the exit status is non-zero if any did.
test: setup
	@failed=""; \
	for t in $(TEST_TARGETS); do \
	  echo "=== $$t"; \
	  $(MAKE) $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed" >&2; exit 1; fi; \
	echo "all test targets passed: $(TEST_TARGETS)"

clean:
	rm -rf .venv-* .stamps server-node/node_modules site/node_modules site/dist site/test-output client-java/target
