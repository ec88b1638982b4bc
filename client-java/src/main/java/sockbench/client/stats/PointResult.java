package sockbench.client.stats;

import java.util.List;

/**
 * One measured point: concurrency N held at one target rate for one window
 * (results/README.md, {@code levels[].points[]}).
 *
 * @param targetRate         messages/s all clients together were scheduled to send
 * @param durationS          measured window, seconds
 * @param sent               messages sent in the window
 * @param sentPerS           sent / durationS, messages/s (achieved send rate)
 * @param received           copies received by all clients in the window (arrival time inside it)
 * @param receivedPerS       received / durationS, messages/s
 * @param expectedReceived   sent × connections open at the start of the point
 * @param lost               copies of messages sent in the window that had not arrived at the drain deadline
 * @param connectionErrors   connections lost during the point
 * @param rtt                corrected RTT (from the scheduled send time), ms
 * @param rttUncorrected     RTT from the actual send time, ms
 * @param clientCpuPct       client process CPU over the window, percent of one core
 * @param serverCpuPct       server process CPU over the window, percent of one core; null without a server pid
 * @param serverRssBytes     server resident set size at the end of the window, bytes; null without a server pid
 * @param state              ok, saturated, overloaded, or agent_lost (an agent's share is missing: no verdict)
 * @param clientBoundReasons why the point measures the client ({@code send_rate}, {@code client_cpu}); empty if it does not
 * @param outOfOrder         own copies that came back out of send order (not in the schema: reported as a warning)
 * @param phase              ramp, confirm or refine (why the point was measured)
 * @param order              position in the order measured within the level, from 0
 * @param deliveredPct       100 × received / expectedReceived; null when nothing was expected
 * @param rttFirstHalfMeanMs mean corrected RTT of own copies scheduled in the window's first half, ms; null without samples
 * @param rttSecondHalfMeanMs the same for the second half, ms
 * @param backlogGrowing     the second-half mean exceeds the first by more than the backlog rule allows ({@link PointRules})
 * @param okStrict           ok, not backlog-growing, enough delivered, not client-bound ({@link PointRules#okStrict})
 * @param stealPct           hypervisor steal over the window, percent of all CPU time; null when unreadable
 *                           (with agents: the highest any agent saw)
 * @param agents             each agent's part of the point; empty when one process held every connection
 * @param agentLost          the agent that died or stopped answering during the point (its share is
 *                           missing from the counts), or null
 * @param messagesPerFrame   how many messages the data frames received in the window carried (all
 *                           agents' frames and connections); null when none arrived
 * @param fanout             all-copies points: every copy of the measured messages, from each message's
 *                           scheduled send time to the copy's arrival, ms; null otherwise
 * @param completion         all-copies points: per measured message, scheduled send → its last copy; null otherwise
 * @param churn              the reconnect storm through the window ({@code --churn}); null without churn
 * @param transports         with a mix of SockJS transports, each one's share of the point; empty otherwise
 * @param compression        with {@code --compression permessage-deflate}: bytes read against bytes inflated; null otherwise
 * @param slowClients        the slow readers' own figures ({@code --slow-clients}); null without slow readers
 */
public record PointResult(double targetRate, double durationS, long sent, double sentPerS,
                          long received, double receivedPerS, long expectedReceived, long lost,
                          long connectionErrors, LatencySummary rtt, LatencySummary rttUncorrected,
                          double clientCpuPct, Double serverCpuPct, Long serverRssBytes,
                          PointState state, List<String> clientBoundReasons, long outOfOrder,
                          Phase phase, int order, Double deliveredPct, Double rttFirstHalfMeanMs,
                          Double rttSecondHalfMeanMs, boolean backlogGrowing, boolean okStrict, Double stealPct,
                          List<AgentPointResult> agents, String agentLost, MessagesPerFrame messagesPerFrame,
                          LatencySummary fanout, CompletionSummary completion, ChurnRecord churn,
                          List<TransportPointResult> transports, CompressionBytes compression,
                          SlowClientsRecord slowClients) {

    public PointResult {
        clientBoundReasons = List.copyOf(clientBoundReasons);
        transports = List.copyOf(transports);
        agents = List.copyOf(agents);
        okStrict = okStrict && agentLost == null;
    }

    /**
     * True when the state is ok (mean corrected RTT below the ok threshold) and every agent answered
     * (a point missing an agent's share cannot stand for the server's capacity).
     */
    public boolean ok() {
        return state == PointState.OK && agentLost == null;
    }

    /** True when the client could not keep up, so the point measures the client, not the server. */
    public boolean clientBound() {
        return !clientBoundReasons.isEmpty();
    }

    /** A point with every field set by name (28 positional values are too easy to swap); unset: 0, null or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link PointResult}; the field meanings are the record's. */
    public static final class Builder {
        private double targetRate;
        private double durationS;
        private long sent;
        private double sentPerS;
        private long received;
        private double receivedPerS;
        private long expectedReceived;
        private long lost;
        private long connectionErrors;
        private LatencySummary rtt;
        private LatencySummary rttUncorrected;
        private double clientCpuPct;
        private Double serverCpuPct;
        private Long serverRssBytes;
        private PointState state;
        private List<String> clientBoundReasons = List.of();
        private long outOfOrder;
        private Phase phase;
        private int order;
        private Double deliveredPct;
        private Double rttFirstHalfMeanMs;
        private Double rttSecondHalfMeanMs;
        private boolean backlogGrowing;
        private boolean okStrict;
        private Double stealPct;
        private List<AgentPointResult> agents = List.of();
        private String agentLost;
        private CompressionBytes compression;
        private MessagesPerFrame messagesPerFrame;
        private LatencySummary fanout;
        private CompletionSummary completion;
        private ChurnRecord churn;
        private List<TransportPointResult> transports = List.of();
        private SlowClientsRecord slowClients;

        private Builder() {
        }

        public Builder targetRate(double value) {
            this.targetRate = value;
            return this;
        }

        public Builder durationS(double value) {
            this.durationS = value;
            return this;
        }

        public Builder sent(long value) {
            this.sent = value;
            return this;
        }

        public Builder sentPerS(double value) {
            this.sentPerS = value;
            return this;
        }

        public Builder received(long value) {
            this.received = value;
            return this;
        }

        public Builder receivedPerS(double value) {
            this.receivedPerS = value;
            return this;
        }

        public Builder expectedReceived(long value) {
            this.expectedReceived = value;
            return this;
        }

        public Builder lost(long value) {
            this.lost = value;
            return this;
        }

        public Builder connectionErrors(long value) {
            this.connectionErrors = value;
            return this;
        }

        public Builder rtt(LatencySummary value) {
            this.rtt = value;
            return this;
        }

        public Builder rttUncorrected(LatencySummary value) {
            this.rttUncorrected = value;
            return this;
        }

        public Builder clientCpuPct(double value) {
            this.clientCpuPct = value;
            return this;
        }

        public Builder serverCpuPct(Double value) {
            this.serverCpuPct = value;
            return this;
        }

        public Builder serverRssBytes(Long value) {
            this.serverRssBytes = value;
            return this;
        }

        public Builder state(PointState value) {
            this.state = value;
            return this;
        }

        public Builder clientBoundReasons(List<String> value) {
            this.clientBoundReasons = value;
            return this;
        }

        public Builder outOfOrder(long value) {
            this.outOfOrder = value;
            return this;
        }

        public Builder phase(Phase value) {
            this.phase = value;
            return this;
        }

        public Builder order(int value) {
            this.order = value;
            return this;
        }

        public Builder deliveredPct(Double value) {
            this.deliveredPct = value;
            return this;
        }

        public Builder rttFirstHalfMeanMs(Double value) {
            this.rttFirstHalfMeanMs = value;
            return this;
        }

        public Builder rttSecondHalfMeanMs(Double value) {
            this.rttSecondHalfMeanMs = value;
            return this;
        }

        public Builder backlogGrowing(boolean value) {
            this.backlogGrowing = value;
            return this;
        }

        public Builder okStrict(boolean value) {
            this.okStrict = value;
            return this;
        }

        public Builder stealPct(Double value) {
            this.stealPct = value;
            return this;
        }

        public Builder agents(List<AgentPointResult> value) {
            this.agents = value;
            return this;
        }

        public Builder agentLost(String value) {
            this.agentLost = value;
            return this;
        }

        public Builder messagesPerFrame(MessagesPerFrame value) {
            this.messagesPerFrame = value;
            return this;
        }

        public Builder fanout(LatencySummary value) {
            this.fanout = value;
            return this;
        }

        public Builder completion(CompletionSummary value) {
            this.completion = value;
            return this;
        }

        public Builder churn(ChurnRecord value) {
            this.churn = value;
            return this;
        }

        public Builder slowClients(SlowClientsRecord value) {
            this.slowClients = value;
            return this;
        }

        public Builder transports(List<TransportPointResult> value) {
            this.transports = value;
            return this;
        }

        public Builder compression(CompressionBytes value) {
            this.compression = value;
            return this;
        }

        public PointResult build() {
            return new PointResult(targetRate, durationS, sent, sentPerS, received, receivedPerS, expectedReceived, lost, connectionErrors, rtt, rttUncorrected, clientCpuPct, serverCpuPct, serverRssBytes, state, clientBoundReasons, outOfOrder, phase, order, deliveredPct, rttFirstHalfMeanMs, rttSecondHalfMeanMs, backlogGrowing, okStrict, stealPct, agents, agentLost, messagesPerFrame, fanout, completion, churn, transports, compression, slowClients);
        }
    }
}
