package sockbench.client.engine;

/**
 * Which sessions of a level cycle (close cleanly, reconnect) once per second while its broadcast
 * ramp runs ({@code --churn PCT}): client ids with {@code id % k == k - 1}, k = max(2, round(100 /
 * PCT)). The rule needs nothing but the id, so every agent of a fleet picks its own members from
 * the global ids without being told the others'.
 *
 * <p>Pool sessions never send and their copies are never counted: the schedule's slots, the
 * expected copies, the loss and the all-copies figures are the steady sessions' (level − pool)
 * alone, so what churn does to "the others" is what the point measures.
 */
public final class ChurnPool {

    /** No churn: no session is in the pool (today's behaviour). */
    public static final ChurnPool NONE = new ChurnPool(0, 0);

    /** Largest churn, percent of a level's sessions per second: beyond half, the "others" are the minority. */
    public static final double MAX_PCT = 50;

    private final double pct;
    /** Every k-th client id is in the pool; 0 = no pool. */
    private final int k;

    private ChurnPool(double pct, int k) {
        this.pct = pct;
        this.k = k;
    }

    /**
     * The pool of {@code pct} percent, 0 (none) or 0 &lt; pct ≤ {@value #MAX_PCT}.
     *
     * @throws IllegalArgumentException outside that range
     */
    public static ChurnPool of(double pct) {
        if (pct == 0) {
            return NONE;
        }
        if (!(pct > 0 && pct <= MAX_PCT)) {
            throw new IllegalArgumentException("churn must be 0 < PCT <= " + (int) MAX_PCT + " (percent of each level's "
                    + "sessions per second), got " + pct);
        }
        return new ChurnPool(pct, (int) Math.max(2, Math.round(100 / pct)));
    }

    /** The percent asked for (0 = none). */
    public double pct() {
        return pct;
    }

    /** True when some sessions churn. */
    public boolean active() {
        return k > 0;
    }

    /** Whether client {@code id} is in the pool. */
    public boolean contains(int id) {
        return k > 0 && id % k == k - 1;
    }

    /** Pool sessions of a level of {@code level} sessions (ids 0..level-1), all agents together. */
    public int size(int level) {
        return k > 0 ? level / k : 0;
    }
}
