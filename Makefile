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

# Every install step either completes or is redone by the next `make`, however
# it was stopped (Ctrl-C, a killed make, a full disk): a rule's stamp or output
# is written last and only after the step succeeded, and whatever a stopped
# step leaves behind is thrown away, not built upon. New install rules use the
# three macros below: venv-complete-or-redone (venvs), redo-unless-complete
# (tools that write their output in place), ensure-debian (apt). npm ci needs
# no macro: it deletes node_modules before installing, so a stamp touched after
# it suffices. bench/tests/test_setup_repair.py stops real installs half-way
# and checks that the next make repairs them.

# $(call ensure-debian,CHECK-COMMAND,PACKAGES): run CHECK-COMMAND; if it fails,
# or if dpkg holds one of PACKAGES half-installed (an apt-get stopped part-way
# can leave files that pass CHECK-COMMAND in a package dpkg never configured),
# install PACKAGES with apt-get when we are root, first finishing an interrupted
# dpkg run (apt-get refuses to work until `dpkg --configure -a` has), otherwise
# stop with one line saying what to run. The lock timeout lets two makes that
# both need packages wait for each other instead of failing.
# Used for pypy3 and chromium, which PyPI/npm cannot give us.
define ensure-debian
if ! ( $(1) ) >/dev/null 2>&1 || \
   { dpkg-query -W -f='$${db:Status-Abbrev}\n' $(2) 2>/dev/null || true; } | grep -q '^.[UFHWt]'; then \
  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
    echo ">> installing Debian packages: $(2)"; \
    if [ -n "$$(dpkg --audit 2>/dev/null)" ]; then DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null; fi && \
    apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null && \
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $(2) >/dev/null; \
  else \
    echo "sockbench needs the Debian packages '$(2)', installed and configured: run 'sudo dpkg --configure -a; sudo apt-get install $(2)' and try again" >&2; exit 1; \
  fi; \
fi
endef

# $(call venv-complete-or-redone,VENV,PYTHON,INSTALL): leave VENV a venv of the
# interpreter command PYTHON in which the shell command INSTALL (pip installs
# through VENV/bin/python) ran to its end, or fail. VENV/.install-incomplete is
# created before anything else and removed only once INSTALL has succeeded; a
# venv that still has it, or whose pip does not run (`python -m venv` stopped
# before ensurepip), is deleted and made again. A complete venv is kept and
# INSTALL runs in it again (pip skips what is installed). Touch the rule's stamp
# after this line, so a stopped make reruns the rule. INSTALL is one shell
# command: join lines with `&& \`, write $(,) for a comma.
define venv-complete-or-redone
if [ -e $(1)/.install-incomplete ] || ! $(1)/bin/python -m pip --version >/dev/null 2>&1; then \
  if [ -e $(1) ]; then echo ">> $(1): its last install did not finish; making the venv again"; fi; \
  rm -rf $(1) && mkdir -p $(1) && touch $(1)/.install-incomplete && $(2) -m venv $(1); \
else \
  touch $(1)/.install-incomplete; \
fi && \
( $(3) ) && \
rm $(1)/.install-incomplete
endef

# $(call redo-unless-complete,OUTPUT,MARK): a prerequisite for a rule whose tool
# writes OUTPUT in place, where a build stopped part-way leaves an OUTPUT newer
# than its inputs (Maven writes the plain jar, then shades it over): FORCE
# (rebuild) unless MARK, which the recipe touches after OUTPUT as its last step,
# is at least as new as OUTPUT. A tool that can write elsewhere needs no mark:
# build into OUTPUT.partial, then `mv -f` it over OUTPUT (a rename is atomic).
redo-unless-complete = $(shell [ -e $(2) ] && ! [ $(1) -nt $(2) ] || echo FORCE)
.PHONY: FORCE
FORCE:

$(STAMPS):
	@mkdir -p $@

# A comma for $(call ...) arguments that need one.
, := ,

# docs/contract/make.mk comes first: what every component shares (the
# conformance suite's folder, the scale-out broker rules), used in the
# components' prerequisites, which make expands as it reads them.
include $(wildcard docs/contract/make.mk server-python/make.mk server-python/runtimes.mk server-node/make.mk client-java/make.mk site/make.mk bench/make.mk bench/crosscheck-go/make.mk docs/make.mk bench/peers/sockjs_go/make.mk bench/sockjs-client-check/make.mk bench/limit-server/make.mk bench/read-floor/make.mk)

.PHONY: help setup test clean
help:
	@echo "sockbench targets:"
	@echo "  make setup            install everything the project needs (idempotent)"
	@echo "  make test             setup, then run every component's tests"
	@printf '  %s\n' $(HELP_LINES)
	@echo "  make clean            remove installs and build outputs (.venv-*, node_modules, target, site/dist, .stamps)"

setup: $(SETUP_TARGETS)

# Every component's tests run even when an earlier one fails; the summary says
# which failed and the exit status is non-zero if any did. Each target's wall
# time is printed after it and again at the end, slowest first: CI has a time
# budget (aim < 15 min) and this says where it goes.
test: setup
	@failed=""; times=""; \
	for t in $(TEST_TARGETS); do \
	  echo "=== $$t"; began=$$(date +%s); \
	  $(MAKE) $$t || failed="$$failed $$t"; \
	  took=$$(( $$(date +%s) - began )); echo "=== $$t took $$took s"; \
	  times="$$times$$took $$t\n"; \
	done; \
	echo "test targets by wall time (s):"; printf "$$times" | sort -rn | sed 's/^/  /'; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed" >&2; exit 1; fi; \
	echo "all test targets passed: $(TEST_TARGETS)"

clean:
	rm -rf .venv-* .stamps server-node/node_modules server-node/runtimes/node_modules site/node_modules bench/sockjs-client-check/node_modules site/dist site/test-output client-java/target
