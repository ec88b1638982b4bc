package sockbench.client.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.plan.Profile;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;

/** The benchmark's overrides of its profile's levels, ramp and timings; any but --levels makes the profile 'custom'. */
final class PlanOptions {

    @Option(names = "--levels", paramLabel = "N", split = ",",
            description = "Concurrency levels (connections, each >= 1). Default: the profile's.")
    List<Integer> levels;

    @Option(names = "--ramp", paramLabel = "geometric|additive", description = "Rate ramp (profile becomes 'custom'). Default: the profile's.")
    String ramp;

    @Option(names = "--rate-factor", paramLabel = "X", description = "Geometric ramp multiplier, > 1 (profile becomes 'custom'). Default: the profile's (1.25 for legacy with --ramp geometric).")
    Double rateFactor;

    @Option(names = "--start-rate", paramLabel = "MSG/S", description = "First target rate of each level, messages/s sent by all clients together, > 0 (profile becomes 'custom'). Default: the profile's.")
    Double startRate;

    @Option(names = "--max-rate", paramLabel = "MSG/S", description = "A level ends when the next target rate would exceed this, messages/s (profile becomes 'custom'); given, it wins over --client-ceilings. Default: the profile's, which caps only levels without a client ceiling.")
    Double maxRate;

    @Option(names = "--step", paramLabel = "SECONDS", description = "Measured window per point, seconds, > 0 (profile becomes 'custom'). Default: the profile's.")
    Double stepS;

    @Option(names = "--settle", paramLabel = "SECONDS", description = "Minimum pause after each window, seconds, >= 0 (profile becomes 'custom'). Default: the profile's.")
    Double settleS;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Unrecorded warm-up before each window, seconds, >= 0 (profile becomes 'custom'). Default: the profile's.")
    Double warmupS;

    @Option(names = "--idle-hold-s", paramLabel = "SECONDS",
            description = "Hold each level's sessions idle this long after connecting, before its first point (memory per "
                    + "session, idle CPU, SockJS heartbeats), seconds, 0..3600; 0 = no hold. Default: the profile's (30 for "
                    + "sessions, else 0).")
    Double idleHoldS;

    @Option(names = "--connect-rate", paramLabel = "CONNECTS/S",
            description = "Start at most this many new connections per second while a level opens, spread over the I/O "
                    + "threads (and agents), 0..1000000; 0 = unpaced (only --connect-concurrency limits it). Default: the "
                    + "profile's (2000 for sessions, else 0).")
    Double connectRatePerS;

    @Option(names = "--all-copies", negatable = true,
            description = "Time EVERY copy of every measured message (not only the sender's own) and judge points by the "
                    + "all-copies p99 (fan-out verdict); --no-all-copies: the own-copy mean verdict. Changing the profile's "
                    + "choice makes the profile 'custom'. Default: the profile's (on for sessions, else off).")
    Boolean allCopies;

    @Option(names = "--churn", paramLabel = "PCT",
            description = "Reconnect storm: this percent of each level's sessions (client ids i with i %% k == k - 1, "
                    + "k = max(2, round(100 / PCT))) closes cleanly and opens a new SockJS session once a second, spread "
                    + "evenly over the second, from the level's first point until its ramp ends. Pool sessions never send "
                    + "and their copies are not counted: the points measure the other sessions. Percent, 0 < PCT <= 50; "
                    + "needs the all-copies verdict (--profile sessions or --all-copies). Keeps the profile's name. "
                    + "Default: 0 (no churn).")
    Double churnPct;

    /** True when --max-rate was given: it then caps every level, a client ceiling or not (sweep/LevelCap). */
    boolean maxRateGiven() {
        return maxRate != null;
    }

    /** Multiplier a profile with the additive ramp gets when --ramp geometric comes without --rate-factor. */
    static final double GEOMETRIC_FALLBACK_FACTOR = 1.25;

    /**
     * The profile's plan with these overrides; an impossible plan is a usage error.
     *
     * @param adaptiveStart false for --no-adaptive-start (every level from the start rate)
     */
    SweepPlan plan(CommandSpec spec, Profile profile, boolean adaptiveStart) {
        SweepPlan p = profile.plan();
        // The idle hold and the connect pace shape the level's opening, not its points: recorded in
        // parameters, they keep the name. The copies timed change the verdict, so a change is 'custom'.
        boolean custom = ramp != null || rateFactor != null || startRate != null || maxRate != null
                || stepS != null || settleS != null || warmupS != null
                || (allCopies != null && allCopies != p.allCopies());
        Ramp r = ramp != null ? Usage.parseEnum(spec, Ramp.class, ramp, "--ramp") : p.ramp();
        double factor = rateFactor != null ? rateFactor
                : (p.ramp() == Ramp.GEOMETRIC ? p.rateFactor() : GEOMETRIC_FALLBACK_FACTOR);
        SweepPlan.Builder b = p.toBuilder().ramp(r).rateFactor(factor)
                .nextLevelStartFraction(!adaptiveStart || r != Ramp.GEOMETRIC ? null : p.nextLevelStartFraction());
        if (custom) {
            b.profile("custom");
        }
        if (levels != null) {
            b.levels(levels);
        }
        if (startRate != null) {
            b.startRate(startRate);
        }
        if (stepS != null) {
            b.stepS(stepS);
        }
        if (settleS != null) {
            b.settleS(settleS);
        }
        if (warmupS != null) {
            b.warmupS(warmupS);
        }
        if (maxRate != null) {
            b.maxRate(maxRate);
        }
        if (idleHoldS != null) {
            b.idleHoldS(idleHoldS);
        }
        if (connectRatePerS != null) {
            b.connectRatePerS(connectRatePerS);
        }
        if (allCopies != null) {
            b.allCopies(allCopies);
        }
        if (churnPct != null) {
            Usage.require(spec, churnPct >= 0 && churnPct <= SweepPlan.MAX_CHURN_PCT,
                    "--churn must be 0 < PCT <= " + SweepPlan.MAX_CHURN_PCT + " (percent of each level's sessions "
                            + "per second), got " + churnPct);
            b.churnPct(churnPct);
        }
        return Usage.parse(spec, null, b::build);
    }
}
