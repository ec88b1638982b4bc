package sockbench.client.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which sessions of a level read slowly, and how slowly ({@code --slow-clients PCT%:KIB}): a share
 * of the client ids whose reads are held to at most KIB KiB/s each ({@link ReadBucket}), so their
 * kernel receive buffers fill, TCP's window closes and the server must buffer for them or cut
 * them off (docs/slow-readers.md).
 *
 * <p><b>Which ids.</b> Client i is slow when ⌈(i + 1) × share⌉ &gt; ⌈i × share⌉ (share = PCT / 100,
 * in exact integer hundredths of a percent): ids 0, 10, 20, … for 10 %, 0, 4, 8, … for 25 %. Like
 * {@link ChurnPool}'s rule it needs nothing but the id, so it is the same in every run; unlike
 * {@code id % k == k − 1} the first slow id is 0, so any level's first N ids hold ⌈N × share⌉ slow
 * sessions: the {@code smoke} profile's levels of 2 and 4 sessions get one each rather than none.
 * For PCT ≤ 50 a level of N ≥ 2 sessions always keeps at least one healthy session.
 *
 * <p>Slow sessions never send (they take no schedule slot, as the churn pool) and their copies are
 * kept apart ({@link PointCounters#slow}): the point's verdict, its latency and its loss are the
 * healthy sessions', so the result says what the slow ones cost <em>the others</em>.
 */
public final class SlowReaders {

    /** No slow sessions (the behaviour before {@code --slow-clients}). */
    public static final SlowReaders NONE = new SlowReaders(0, 0);

    /** Largest share, percent: beyond half the "healthy" sessions are the minority. */
    public static final double MAX_PCT = 50;
    /** Slowest and fastest read rate, KiB/s. */
    public static final long MIN_KIB_PER_S = 1;
    public static final long MAX_KIB_PER_S = 1_000_000;

    private static final Pattern SPEC = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]{1,2})?)\\s*%?\\s*:\\s*([0-9]{1,7})\\s*");
    /** Hundredths of a percent per whole (100 % = 10,000). */
    private static final long WHOLE = 10_000;

    /** The share in hundredths of a percent, 0 = none. */
    private final long basisPoints;
    private final long kibPerS;

    private SlowReaders(long basisPoints, long kibPerS) {
        this.basisPoints = basisPoints;
        this.kibPerS = kibPerS;
    }

    /**
     * Parses {@code PCT%:KIB}: a share 0 &lt; PCT ≤ 50 (percent, at most two decimals, the {@code %}
     * optional) and a rate 1..1,000,000 KiB/s per slow session.
     *
     * @throws IllegalArgumentException naming what is wrong, in one line
     */
    public static SlowReaders parse(String spec) {
        Matcher m = spec == null ? null : SPEC.matcher(spec);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("expected PCT%:KIB (e.g. 10%:64: a tenth of the sessions read at most "
                    + "64 KiB/s each), got '" + spec + "'");
        }
        double pct = Double.parseDouble(m.group(1));
        long bp = Math.round(pct * 100);
        if (bp <= 0 || bp > MAX_PCT * 100) {
            throw new IllegalArgumentException("the share of slow sessions must be 0 < PCT <= " + (int) MAX_PCT
                    + " (percent), got '" + m.group(1) + "' in '" + spec + "'");
        }
        long kib = Long.parseLong(m.group(2));
        if (kib < MIN_KIB_PER_S || kib > MAX_KIB_PER_S) {
            throw new IllegalArgumentException("the read rate of a slow session must be " + MIN_KIB_PER_S + ".."
                    + MAX_KIB_PER_S + " KiB/s, got '" + m.group(2) + "' in '" + spec + "'");
        }
        return new SlowReaders(bp, kib);
    }

    /** True when some sessions read slowly. */
    public boolean active() {
        return basisPoints > 0;
    }

    /** The share asked for, percent (0 = none). */
    public double pct() {
        return basisPoints / 100.0;
    }

    /** Each slow session's read rate, KiB/s (0 = none). */
    public long kibPerS() {
        return kibPerS;
    }

    /** Each slow session's read rate, bytes per second. */
    public long bytesPerS() {
        return kibPerS * 1024;
    }

    /** Whether client {@code id} (≥ 0) reads slowly. */
    public boolean contains(int id) {
        return basisPoints > 0 && ceilShare(id + 1L) > ceilShare(id);
    }

    /** Slow sessions among client ids 0..level-1 (all agents together). */
    public int size(int level) {
        return (int) ceilShare(level);
    }

    /** ⌈n × share⌉, exact. */
    private long ceilShare(long n) {
        return (n * basisPoints + WHOLE - 1) / WHOLE;
    }

    /** The canonical spec, {@code PCT%:KIB} (as the runner passes it on and names files by it). */
    public String spec() {
        double pct = pct();
        String p = pct == Math.rint(pct) ? Long.toString((long) pct) : String.format(Locale.ROOT, "%s", pct);
        return p + "%:" + kibPerS;
    }

    /** A new read budget for one slow session (full, so the handshake is not held up). */
    ReadBucket newBucket(long nowNs) {
        return new ReadBucket(bytesPerS(), nowNs);
    }

    @Override
    public String toString() {
        return active() ? spec() : "none";
    }
}
