# client-java: the load generator (see client-java/README.md).
# Included by the top-level Makefile, which defines ROOT, STAMPS and ensure-debian.

JAVA_DIR   := $(ROOT)/client-java
# The runnable jar the bench targets use; the name does not change between versions.
CLIENT_JAR := $(JAVA_DIR)/target/sockbench-client.jar
JAVA_STAMP := $(STAMPS)/setup-java
JAVA_SRCS  := $(shell find $(JAVA_DIR)/src/main -type f 2>/dev/null)
JAVA       ?= java
# firehose self-test knobs: connection counts, window per count (s), CPUs of sender and client.
FIREHOSE_CONNECTIONS ?= 100,1000,5000
FIREHOSE_SECONDS     ?= 10
FIREHOSE_SENDER_CPU  ?= 0
FIREHOSE_CLIENT_CPU  ?= 1
# messages per a[...] frame: 1 = one frame per copy (naive servers), 100 = coalesced (fast mode)
FIREHOSE_MESSAGES_PER_FRAME ?= 1,100

# make client-agent: one agent of a fleet run, started by hand (e.g. on another host).
# BROKER (or BUS): the run's Redis bus, redis://HOST:PORT/DB; RUN_ID: the coordinator's run id
# (it prints it); AGENT_CPU: CPUs to pin the agent to (empty = not pinned); AGENT_ARGS: more agent
# flags, e.g. '--source-addresses 10.0.0.5,10.0.0.6' (see `java -jar $(CLIENT_JAR) agent --help`).
RUN_ID     ?=
AGENT_CPU  ?=
AGENT_ARGS ?=

SETUP_TARGETS += setup-java
TEST_TARGETS  += test-java
HELP_LINES    += "make setup-java       build the load generator jar (client-java/target/sockbench-client.jar)"
HELP_LINES    += "make test-java        run the client-java tests (mvn test: parser, plans, rules, stats, integration)"
HELP_LINES    += "make client-agent BROKER=redis://HOST:PORT/DB RUN_ID=ID [AGENT_CPU=] [AGENT_ARGS=]   one load-generator agent for a coordinator run (--agents N), e.g. on another host"
HELP_LINES    += "make firehose-java    client self-test: pinned sender vs pinned client, msgs/s and RSS per (connections, msgs/frame) (FIREHOSE_CONNECTIONS, FIREHOSE_MESSAGES_PER_FRAME, FIREHOSE_SECONDS)"

.PHONY: setup-java test-java firehose-java client-agent

# Needs a JDK >= 17 and Maven; installs Debian's when missing (as root).
define java-check
@$(call ensure-debian,command -v mvn && command -v javac,maven openjdk-17-jdk-headless)
@$(JAVA) -version 2>&1 | head -1 | grep -Eq 'version "(1[7-9]|[2-9][0-9])' \
  || { echo "client-java needs Java >= 17, found: $$($(JAVA) -version 2>&1 | head -1)" >&2; exit 1; }
endef

setup-java: $(CLIENT_JAR)

# The jar is the stamp: rebuilt only when it is missing or older than pom.xml or a
# main source, or when the last build was stopped after Maven wrote it (the plain
# jar comes first, the shaded one over it): .stamps/setup-java is touched after
# the jar once the build has finished (redo-unless-complete, Makefile).
$(CLIENT_JAR): $(JAVA_DIR)/pom.xml $(JAVA_SRCS) $(call redo-unless-complete,$(CLIENT_JAR),$(JAVA_STAMP)) | $(STAMPS)
	$(java-check)
	cd $(JAVA_DIR) && mvn -q -B package -DskipTests
	@test -f $@
	@touch $@ $(JAVA_STAMP)

# Surefire prints its usual "Tests run: N, Failures: 0, ..." summary.
test-java: setup-java
	cd $(JAVA_DIR) && mvn -B test

firehose-java: setup-java
	taskset -c $(FIREHOSE_CLIENT_CPU) $(JAVA) -jar $(CLIENT_JAR) firehose --connections $(FIREHOSE_CONNECTIONS) \
	  --duration $(FIREHOSE_SECONDS) --sender-cpus $(FIREHOSE_SENDER_CPU) --messages-per-frame $(FIREHOSE_MESSAGES_PER_FRAME)

# Serves one run of the coordinator, then exits; one line and status 1 if the bus does not answer.
client-agent: setup-java
	@test -n "$(or $(BUS),$(BROKER))" -a -n "$(RUN_ID)" || { echo "make client-agent needs BROKER=redis://HOST:PORT/DB (the run's bus) and RUN_ID=<the coordinator's run id>" >&2; exit 2; }
	$(if $(AGENT_CPU),taskset -c $(AGENT_CPU)) $(JAVA) -jar $(CLIENT_JAR) agent --bus $(or $(BUS),$(BROKER)) --run-id $(RUN_ID) $(AGENT_ARGS)
