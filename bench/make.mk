# bench/: end-to-end benchmark runs, the sockjs-tornado peer, result comparison.
# Included by the top-level Makefile.

SERVER_CPU ?= 0
CLIENT_CPU ?=
PROFILE    ?= standard
LEVELS     ?=
TRANSPORT  ?= sockjs
# SockJS transport of each session: websocket (default), xhr-streaming, eventsource, xhr-polling, or a
# weighted mix, e.g. TRANSPORTS=websocket:80,xhr-streaming:10,eventsource:5,xhr-polling:5
# (results/README.md "Transports"; the client checks the value before any server starts).
TRANSPORTS ?= websocket
# COMPRESSION=none|permessage-deflate (docs/contract/make.mk): a server that cannot is refused in
# one line before anything starts (docs/compression.md; `make servers` marks the ones that can).
# Independent repetitions per server; empty = the runner's default for the
# profile (3 for standard, 1 for the others: bench/profiles.py).
REPEAT     ?=
# `make bench` only: a comma list of server registry entries and groups
# (docs/contract/server-registry.json), e.g. SERVERS=pypy-fast,node-naive or
# SERVERS=runtimes; empty = the default group (the like-for-like matrix).
SERVERS    ?=
# `make serve` / `make install-server`: one registry entry, e.g. SERVER=cpython3.13-fast.
SERVER     ?=
# `make bench-url`: a SockJS broadcast server you run yourself. URL: its SockJS
# service URL, http://HOST:PORT/prefix; SERVER_PID: its process id on this
# machine (empty = not sampled: no server CPU/RSS, floors judged from the
# client's side); NAME: its name in the result (default byo); MODE: fast|naive,
# its broadcast algorithm group (default: not said).
URL        ?=
SERVER_PID ?=
NAME       ?=
MODE       ?=
# `make compare`: two files (A=, B=), or a folder (DIR=, or A=<folder>) against BASE=.
A    ?=
B    ?=
DIR  ?=
BASE ?=
# `make compare`: the verdict's level, in concurrent clients (empty = per algorithm
# group, the highest level every run measured).
LEVEL ?=
# Scale-out (WORKERS= and BROKER= are defined in docs/contract/make.mk): the
# server runs WORKERS processes on SERVER_CPU (a list, e.g. SERVER_CPU=0,1:
# the workers inherit it); WORKERS > 1 without BROKER, or BROKER=private,
# gives each repetition a fresh private redis-server, pinned to BROKER_CPU
# (empty = not pinned). PROXY=haproxy (docs/contract/make.mk): WORKERS
# one-worker processes behind haproxy on PORT instead, haproxy on SERVER_CPU
# with them and sampled as part of the server.
BROKER_CPU ?=
# The client as a coordinator plus AGENTS agent processes on CLIENT_CPU (client i on agent i mod
# AGENTS), talking through a private redis-server per repetition, or BUS=redis://HOST:PORT/DB.
# AGENTS=1 (default): one client process, as before. client-java/README.md "Several processes and hosts".
AGENTS ?= 1
BUS ?=
# `make bench-scaleout` (bench/run_scaleout.py, docs/scaleout-simulation.md): WORKERS= is a
# comma list of worker counts there (e.g. 1,2,4); CORE_SHARE: each worker's cgroup CPU quota as a
# fraction of one core, in (0, 1], with (largest WORKERS) x CORE_SHARE <= 1; PERIOD_US: the CFS
# period, microseconds, 1000-1000000 (empty = 100000). The broker runs on BROKER_CPU (empty = the
# client's CPUs).
CORE_SHARE ?= 0.25
PERIOD_US  ?=
# Churn (docs/sessions.md "Churn"): CHURN=5% (or CHURN=5) makes that share of each level's sessions
# close and reconnect once per second during its broadcast ramp (client --churn 5); empty = no churn.
# Needs the all-copies verdict (PROFILE=sessions); the runner refuses anything else in one line.
CHURN ?=
# Slow readers (docs/slow-readers.md): SLOW_CLIENTS=10%:64 makes that share of each level's sessions
# read at most 64 KiB/s each (client --slow-clients); empty = none. The client checks it first.
SLOW_CLIENTS ?=
# Extra client flags for custom sweeps, e.g. CLIENT_ARGS='--step 1 --rate-factor 1.5'.
CLIENT_ARGS ?=
export CLIENT_ARGS

BENCH_PY   := $(ROOT)/.venv-bench/bin/python
RUN_BENCH   = $(BENCH_PY) $(ROOT)/bench/run_bench.py --profile $(PROFILE) --server-cpu $(SERVER_CPU) \
              --port $(PORT) --host $(HOST) --heartbeat $(HEARTBEAT) --transport $(TRANSPORT) --transports '$(TRANSPORTS)' --json $(JSON) \
              --compression '$(COMPRESSION)' $(if $(CLIENT_CPU),--client-cpu $(CLIENT_CPU)) $(if $(LEVELS),--levels $(LEVELS)) \
              $(if $(REPEAT),--repeat $(REPEAT)) $(if $(CHURN),--churn '$(CHURN)') \
              $(if $(SLOW_CLIENTS),--slow-clients '$(SLOW_CLIENTS)') \
              $(if $(filter-out 1,$(WORKERS)),--workers $(WORKERS)) $(if $(BROKER),--broker $(BROKER)) \
              $(if $(BROKER_CPU),--broker-cpu $(BROKER_CPU)) $(if $(PROXY),--proxy '$(PROXY)') \
              $(if $(filter-out 1,$(AGENTS)),--agents $(AGENTS)) $(if $(BUS),--bus $(BUS))

# What a benchmark needs and nothing more (not `setup`, which also installs
# Chromium for the site's browser tests): the client jar, .venv-bench, and the
# server's own install. `make site` afterwards needs only the site's npm packages.
BENCH_COMMON_DEPS := $(CLIENT_JAR) $(STAMPS)/venv-bench $(SCALEOUT_SETUP)
BENCH_PEER_DEPS   := $(STAMPS)/venv-peer-cpython $(STAMPS)/venv-peer-pypy

SETUP_TARGETS += setup-bench
TEST_TARGETS  += test-bench
HELP_LINES += "make bench-pypy       benchmark our server on PyPy (PROFILE=smoke|quick|standard|legacy|full|sessions, REPEAT=, LEVELS=, JSON=, NAIVE=1, TRANSPORTS=websocket|xhr-streaming|eventsource|xhr-polling|mix, COMPRESSION=none|permessage-deflate, SERVER_CPU=, CLIENT_CPU=, PORT=)" \
              "  bench-* PROFILE=sessions   1,000 ... 100,000 sessions: connect, idle memory per session, every copy's latency; levels above 19,000 on ceil(N/19000) workers and agents (docs/sessions.md)" \
              "  bench-* PROFILE=sessions CHURN=5%   the same while 5 % of each level's sessions close and reconnect every second during the broadcast: connects/s served, reconnect time, the other sessions' latency (docs/sessions.md, Churn)" \
              "  bench-* SLOW_CLIENTS=10%:64   a tenth of each level's sessions read at most 64 KiB/s: what they cost the others' latency and the server's memory, and how many it cut off (docs/slow-readers.md)" \
              "make bench-cpython    the same on CPython" \
              "make bench-node       benchmark server-node (sockjs-node; NAIVE=1 for one write per recipient)" \
              "  bench-pypy|cpython|node WORKERS=N [BROKER=redis://HOST:PORT/DB|private] [BROKER_CPU=]   N worker processes on SERVER_CPU (a list, e.g. SERVER_CPU=0,1); a private redis-server per repetition unless BROKER=URL" \
              "  bench-*|serve-* WORKERS=N PROXY=haproxy   N one-worker processes behind haproxy (routing on the session id: every transport), haproxy pinned and sampled with them (docs/scaling-out.md)" \
              "make bench-scaleout SERVER=pypy-fast WORKERS=1,2,4 CORE_SHARE=0.25 [PROFILE= LEVELS= REPEAT= PERIOD_US=]   scale-out simulated on one core: each worker under a cgroup CPU quota, client and broker on the other cores; a result file per worker count + the efficiency and relay-cost summary (docs/scaleout-simulation.md)" \
              "make bench            the like-for-like matrix (PyPy, CPython, Node x fast/naive + the sockjs-tornado peer), interleaved, then make site (SERVERS=pypy-fast,node-naive for a subset, SERVERS=runtimes for the runtimes group)" \
              "make bench-plan SERVERS=...   the plan and its estimated time only (same knobs as make bench)" \
              "make bench-url URL=http://HOST:PORT/prefix [SERVER_PID=] [NAME=] [MODE=fast|naive]   benchmark a SockJS broadcast server you run yourself (PROFILE=, REPEAT=, LEVELS=, ... as bench-*)" \
              "make serve SERVER=name  run any registry entry in the foreground, READY line on stdout (HOST= PORT= HEARTBEAT= JSON= WORKERS= BROKER= where it has them)" \
              "make servers          list the server registry: names, modes, groups, what is missing here" \
              "make install-server SERVER=name   install one registry entry (make bench and make serve do it themselves)" \
              "make bench-peer-sockjs-tornado   the original sockjs-tornado 1.0.7 (peer) on CPython and PyPy" \
              "make compare A=x.json B=y.json [LEVEL=N]  Markdown: the verdict sentence, then per level both medians, ratio, within noise or not" \
              "make compare DIR=results/reference [BASE=sockjs-tornado-cpython]  every run against one baseline; sessions runs ranked by fan-out saturation per level" \
              "make saturation-tables DIR=results/reference [RSS_LEVEL=1000]  the reference pages' tables: per algorithm group, median (min-max), floors with reasons, each figure's share of the folder's limit server" \
              "make session-kind-costs DIR=results/<folder> [LEVELS=100,1000]  per level, each session kind (TRANSPORTS=, COMPRESSION=, SLOW_CLIENTS= runs in one folder) in broadcasts/s against the same server's websocket sessions, then CPU, RSS, slow readers cut off, compression at saturation"

# After a run: rebuild the page and say where everything is.
define bench-finish
@$(MAKE) site
@echo "results: $(ROOT)/results/ (newest: $$(ls -t $(ROOT)/results/*.json | head -1))"
@echo "page:    $(ROOT)/site/dist/index.html (copy site/dist/ to any static host to publish)"
endef

# .venv-bench: CPython tools for checking and comparing results.
setup-bench: $(STAMPS)/venv-bench
$(STAMPS)/venv-bench: bench/requirements.txt | $(STAMPS)
	@$(call venv-complete-or-redone,$(ROOT)/.venv-bench,python3.11,$(ROOT)/.venv-bench/bin/python -m pip install -q --disable-pip-version-check -r bench/requirements.txt)
	@touch $@

# The peer gets venvs of its own so none of our code is importable next to it.
$(STAMPS)/venv-peer-cpython: bench/peers/sockjs_tornado/requirements.txt | $(STAMPS)
	@$(call venv-complete-or-redone,$(ROOT)/.venv-peer-cpython,python3.11,$(ROOT)/.venv-peer-cpython/bin/python -m pip install -q --disable-pip-version-check -r $<)
	@touch $@
$(STAMPS)/venv-peer-pypy: bench/peers/sockjs_tornado/requirements.txt | $(STAMPS)
	@$(call ensure-debian,pypy3 -c 'import venv$(,) ensurepip',pypy3 pypy3-venv pypy3-dev)
	@$(call venv-complete-or-redone,$(ROOT)/.venv-peer-pypy,pypy3,$(ROOT)/.venv-peer-pypy/bin/python -m pip install -q --disable-pip-version-check -r $<)
	@touch $@

.PHONY: bench-scaleout
# The settings are checked first (usage errors exit 2 before anything is installed or started).
SCALEOUT_ARGS = --workers-list '$(WORKERS)' --core-share '$(CORE_SHARE)' $(if $(PERIOD_US),--period-us $(PERIOD_US)) \
                $(if $(BROKER_CPU),--broker-cpu $(BROKER_CPU)) --server '$(SERVER)' --profile $(PROFILE) \
                --server-cpu $(SERVER_CPU) --port $(PORT) --host $(HOST) --heartbeat $(HEARTBEAT) --transport $(TRANSPORT) \
                --json $(JSON) $(if $(CLIENT_CPU),--client-cpu $(CLIENT_CPU)) $(if $(LEVELS),--levels $(LEVELS)) \
                $(if $(REPEAT),--repeat $(REPEAT)) $(if $(CHURN),--churn '$(CHURN)')
bench-scaleout: $(BENCH_COMMON_DEPS)
	@[ -n "$(SERVER)" ] || { echo "usage: make bench-scaleout SERVER=name WORKERS=1,2,4 CORE_SHARE=0.25 [PROFILE= LEVELS= REPEAT= PERIOD_US= SERVER_CPU= CLIENT_CPU= BROKER_CPU=]" >&2; exit 2; }
	@$(BENCH_PY) $(ROOT)/bench/run_scaleout.py $(SCALEOUT_ARGS) --check-usage
	@$(call registry-install,$(SERVER),--single)
	$(BENCH_PY) $(ROOT)/bench/run_scaleout.py $(SCALEOUT_ARGS)

# make profile-kernel SERVER=<entry> CONNECTIONS=N RATE=MSGS/S [SECONDS=15] [TOP=12]: what the server's core
# spends at one fixed broadcast point as the kernel's sampler sees it (bench/kernel_profile.py; bench/README.md
# "Kernel view"): the server pinned to SERVER_CPU (one core, default 0) as the runner starts it, the client on
# CLIENT_CPU (default 1), `perf record` system-wide on the server's core. perf is Debian's linux-perf. A
# measurement: run it alone on the machine.
KERNEL_PROFILE_ARGS = --server '$(SERVER)' --connections '$(CONNECTIONS)' --rate '$(RATE)' --server-cpu '$(SERVER_CPU)' \
                      $(if $(CLIENT_CPU),--client-cpu '$(CLIENT_CPU)') $(if $(SECONDS),--seconds '$(SECONDS)') \
                      $(if $(TOP),--top '$(TOP)')
SETUP_TARGETS += setup-perf
HELP_LINES += "make profile-kernel SERVER=name CONNECTIONS=N RATE=MSGS/S [SECONDS=15] [TOP=12]   perf on the server's core at one fixed broadcast point: shares of the kernel (softirq apart), the runtime's binary, libc, JIT code, idle and other tasks; top kernel and user symbols (Markdown)" \
              "make setup-perf       install Debian's linux-perf (make profile-kernel and its tests)"

# `perf --version` must run, not only exist, so a broken install is installed again.
setup-perf: $(STAMPS)/linux-perf
$(STAMPS)/linux-perf: | $(STAMPS)
	@$(call ensure-debian,perf --version,linux-perf)
	@touch $@

# The command line is checked first (usage errors exit 2 before anything is installed or started).
profile-kernel: $(CLIENT_JAR) $(STAMPS)/venv-bench $(STAMPS)/linux-perf
	@[ -n "$(SERVER)" ] && [ -n "$(CONNECTIONS)" ] && [ -n "$(RATE)" ] || { echo "usage: make profile-kernel SERVER=name CONNECTIONS=N RATE=MSGS/S [SECONDS=15] [TOP=12] [SERVER_CPU=0] [CLIENT_CPU=1] (make servers lists the names)" >&2; exit 2; }
	@$(BENCH_PY) $(ROOT)/bench/kernel_profile.py $(KERNEL_PROFILE_ARGS) --check-usage
	@$(call registry-install,$(SERVER),--single)
	@$(BENCH_PY) $(ROOT)/bench/kernel_profile.py $(KERNEL_PROFILE_ARGS)

.PHONY: setup-bench setup-perf profile-kernel test-bench bench bench-pypy bench-cpython bench-node bench-peer-sockjs-tornado compare saturation-tables \
        session-kind-costs \
        bench-plan bench-url servers install-server serve
# The end-to-end tests run real (smoke-sized) load against real servers.
test-bench: $(STAMPS)/venv-bench $(STAMPS)/linux-perf $(STAMPS)/venv-peer-cpython $(CLIENT_JAR) $(STAMPS)/python-cpython $(STAMPS)/python-pypy $(NODE_STAMP) $(STAMPS)/setup-redis $(STAMPS)/setup-haproxy setup-python-runtimes
	cd $(ROOT) && $(BENCH_PY) -m pytest -q bench/tests

bench-pypy: $(BENCH_COMMON_DEPS) $(STAMPS)/python-pypy
	$(RUN_BENCH) --server pypy $(if $(NAIVE),--naive)
	$(bench-finish)

bench-cpython: $(BENCH_COMMON_DEPS) $(STAMPS)/python-cpython
	$(RUN_BENCH) --server cpython $(if $(NAIVE),--naive)
	$(bench-finish)

bench-node: $(BENCH_COMMON_DEPS) $(NODE_STAMP)
	$(RUN_BENCH) --server node $(if $(NAIVE),--naive)
	$(bench-finish)

bench-peer-sockjs-tornado: $(BENCH_COMMON_DEPS) $(BENCH_PEER_DEPS)
	$(RUN_BENCH) --servers sockjs-tornado-cpython,sockjs-tornado-pypy
	$(bench-finish)

# $(call registry-install,NAMES[,FLAGS]): make the install goals of the
# registry entries NAMES selects (entries whose requirement is missing are
# left out; FLAGS: registry_cli.py installs flags); their output goes to
# stderr, so `make serve` keeps stdout for the READY line.
define registry-install
goals=$$($(REGISTRY) installs --quiet $(2) '$(1)') && { [ -z "$$goals" ] || $(MAKE) -s -C $(ROOT) $$goals >&2; }
endef

bench: $(BENCH_COMMON_DEPS)
	@$(RUN_BENCH) --servers $(or $(SERVERS),all) --check-usage
	@$(call registry-install,$(SERVERS))
	$(RUN_BENCH) --servers $(or $(SERVERS),all)
	$(bench-finish)

bench-plan: $(CLIENT_JAR) $(STAMPS)/venv-bench
	$(RUN_BENCH) --servers $(or $(SERVERS),all) --dry-run

bench-url: $(CLIENT_JAR) $(STAMPS)/venv-bench
	@[ -n "$(URL)" ] || { echo "usage: make bench-url URL=http://HOST:PORT/prefix [SERVER_PID=pid] [NAME=name] [MODE=fast|naive] [PROFILE= REPEAT= LEVELS= ...]" >&2; exit 2; }
	$(RUN_BENCH) --url '$(URL)' $(if $(SERVER_PID),--server-pid $(SERVER_PID)) $(if $(NAME),--name '$(NAME)') \
	  $(if $(MODE),--mode $(MODE))
	$(bench-finish)

servers:
	@$(REGISTRY) list

install-server:
	@[ -n "$(SERVER)" ] || { echo "usage: make install-server SERVER=name (make servers lists them)" >&2; exit 2; }
	@$(call registry-install,$(SERVER),--single $(if $(NAIVE),--naive))

# Silent recipe: stdout carries nothing but the server's READY line. The
# registry builds the launch (and refuses a knob the entry lacks);
# scaleout-command adds WORKERS/BROKER (docs/contract/make.mk).
serve: $(SCALEOUT_SETUP)
	@[ -n "$(SERVER)" ] || { echo "usage: make serve SERVER=name [HOST= PORT= HEARTBEAT= JSON= WORKERS= BROKER= SESSIONS= COMPRESSION=] (make servers lists them)" >&2; exit 2; }
	@$(call registry-install,$(SERVER),--single $(if $(NAIVE),--naive))
	@argv=$$($(REGISTRY) argv '$(SERVER)' --host $(HOST) --port $(PORT) --heartbeat $(HEARTBEAT) --json $(JSON) \
	  $(if $(NAIVE),--naive) --workers $(WORKERS) $(if $(BROKER),--broker $(BROKER)) $(if $(SESSIONS),--sessions $(SESSIONS)) \
	  --compression '$(COMPRESSION)') && \
	  eval "exec $(call scaleout-command,$$argv)"

compare: $(STAMPS)/venv-bench
	@if [ -n "$(DIR)" ]; then \
	  $(BENCH_PY) $(ROOT)/bench/compare.py $(DIR) $(if $(BASE),--base $(BASE)) $(if $(LEVEL),--level $(LEVEL)); \
	elif [ -n "$(A)" ] && [ -d "$(A)" ] && [ -z "$(B)" ]; then \
	  $(BENCH_PY) $(ROOT)/bench/compare.py $(A) $(if $(BASE),--base $(BASE)) $(if $(LEVEL),--level $(LEVEL)); \
	elif [ -n "$(A)" ] && [ -n "$(B)" ]; then \
	  $(BENCH_PY) $(ROOT)/bench/compare.py $(A) $(B) $(if $(LEVEL),--level $(LEVEL)); \
	else \
	  echo "usage: make compare A=results/x.json B=results/y.json   or   make compare DIR=results/reference [BASE=name]" >&2; exit 2; \
	fi

saturation-tables: $(STAMPS)/venv-bench
	@[ -n "$(DIR)" ] || { echo "usage: make saturation-tables DIR=results/<folder> [RSS_LEVEL=N]" >&2; exit 2; }
	@$(BENCH_PY) $(ROOT)/bench/saturation_tables.py $(DIR) $(if $(RSS_LEVEL),--rss-level $(RSS_LEVEL))

# LEVELS= here: which levels to tabulate (default every level measured), not the levels a run measures.
session-kind-costs: $(STAMPS)/venv-bench
	@[ -n "$(DIR)" ] || { echo "usage: make session-kind-costs DIR=results/<folder> [LEVELS=100,1000]" >&2; exit 2; }
	@$(BENCH_PY) $(ROOT)/bench/session_kind_costs.py $(DIR) $(if $(LEVELS),--levels $(LEVELS))
