package sockbench.client.sweep;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import sockbench.client.engine.ConnectProgress;
import sockbench.client.stats.ConnectRecord;

/**
 * The warnings that name a lost agent. A lost agent's share used to read as connections that
 * failed to open, and a point measured by nobody as one measured: these say what happened.
 */
final class AgentLossText {

    private AgentLossText() {
    }

    /**
     * The warning of a level's opening ({@code reopenedFor} null) or of a reopening for a point
     * when an agent was lost by then, e.g. {@code level 100000 (reopened for the confirm point at
     * rate 1.0/s): 83333 of 100000 sessions opened; agent vm:10042 (16667 sessions) was lost while
     * sessions were being closed (no reply within 11000 ms)}: the agent's share is what this
     * opening missed; sessions that failed to connect follow by reason as in any connect warning.
     */
    static String connectWarning(int n, String reopenedFor, ConnectProgress cp, AgentLoss loss) {
        Map<String, Integer> others = new TreeMap<>(cp.failuresByReason());
        int lostShare = others.getOrDefault(AgentLoss.CONNECT_REASON, 0);
        others.remove(AgentLoss.CONNECT_REASON);
        int failedToConnect = Math.max(0, cp.failed() - lostShare);
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "level %d%s: %d of %d sessions opened; agent %s (%d sessions) was lost %s (%s)", n,
                reopenedFor == null ? "" : " (" + reopenedFor + ")", cp.connected(), n, loss.agent(), lostShare,
                loss.duringText(), loss.why()));
        if (failedToConnect > 0) {
            b.append("; ").append(failedToConnect).append(" failed to connect: ")
                    .append(others.isEmpty() ? String.valueOf(cp.firstError()) : ConnectRecord.reasonsText(others));
        }
        return b.toString();
    }

    /**
     * The warning of a point whose agent was lost: before the point, while the sessions were closed
     * and reopened for it (nothing was measured), or during it (the other agents' parts are kept,
     * if any); either way the point is agent_lost, no verdict on the server.
     */
    static String pointWarning(String where, String agent, AgentLoss loss, boolean measuredByOthers) {
        String what = measuredByOthers ? "the point keeps the other agents' counts but is no verdict on the server"
                : "nothing was measured";
        if (loss != null && !"point".equals(loss.during())) {
            return String.format(Locale.ROOT, "%s: agent %s had been lost before the point, %s (%s); %s "
                    + "(state agent_lost) and the sweep stops here", where, agent, loss.duringText(), loss.why(), what);
        }
        return String.format(Locale.ROOT, "%s: agent %s died or stopped answering during the point%s; %s "
                + "(state agent_lost) and the sweep stops here", where, agent,
                loss == null ? "" : " (" + loss.why() + ")", what);
    }
}
