package sockbench.client.fleet;

/**
 * Which schedule slots (message m goes to slot m mod N) each agent's connections take: round
 * robin over the agents, so consecutive messages come from different agents as client i of a
 * level lives on agent i mod A. Every agent computes its own share from the same vector.
 */
public final class SlotAssignment {

    private SlotAssignment() {
    }

    /**
     * @param openPerAgent connections open on each agent, in agent order
     * @param agent        this agent's index
     * @return the slot of this agent's k-th open connection (client-id order), ascending
     */
    public static int[] slotsOf(int[] openPerAgent, int agent) {
        int total = 0;
        for (int n : openPerAgent) {
            total += n;
        }
        int[] mine = new int[openPerAgent[agent]];
        int[] taken = new int[openPerAgent.length];
        int slot = 0;
        int k = 0;
        while (slot < total) {
            for (int a = 0; a < openPerAgent.length; a++) {
                if (taken[a] < openPerAgent[a]) {
                    taken[a]++;
                    if (a == agent) {
                        mine[k++] = slot;
                    }
                    slot++;
                }
            }
        }
        return mine;
    }

    /** Client ids of a level of {@code n} that agent {@code agent} of {@code agents} holds: i mod agents == agent. */
    public static java.util.List<Integer> clientIdsOf(int n, int agent, int agents) {
        java.util.List<Integer> ids = new java.util.ArrayList<>();
        for (int i = agent; i < n; i += agents) {
            ids.add(i);
        }
        return ids;
    }
}
