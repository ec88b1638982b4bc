package sockbench.client.cli;

import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import sockbench.client.plan.Profile;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.SearchRules;
import sockbench.client.sweep.LevelCap;
import sockbench.client.sweep.LevelStart;

/** How the benchmark searches each level's knee: refine steps, the confirm re-run, and where levels start. */
final class SearchOptions {

    @Option(names = "--refine-steps", paramLabel = "N",
            description = "After the first not-ok point, bisect geometrically between the last ok and that rate "
                    + "this many times, 0..20 (0 = report the grid point). Default: the profile's (4 in standard, 3 elsewhere).")
    Integer refineSteps;

    @Option(names = "--no-confirm",
            description = "Believe the first not-ok point without re-running it on fresh connections. Default: confirm.")
    boolean noConfirm;

    @Option(names = "--no-adaptive-start",
            description = "Start every level at the start rate instead of at next_level_start_fraction of the rate the "
                    + "previous level's saturation predicts (see --list-profiles). The profile name is kept; each level "
                    + "records its start_rate. Default: adaptive where the profile sets a fraction.")
    boolean noAdaptiveStart;

    @Option(names = "--level-start-rates", paramLabel = "N:RATE,...",
            description = "First target rate of the listed levels, messages/s sent by all clients together, each in "
                    + "(0, max rate], e.g. 25:12000,100:4800; overrides the adaptive start for those levels. If a level's "
                    + "first point is not ok (after its re-run), it re-ramps from the start rate. Default: none.")
    String levelStartRates;

    @Option(names = "--client-ceilings", paramLabel = "N:MSGS_PER_S,...",
            description = "The client's measured receive ceiling for the listed levels, messages/s received by all "
                    + "connections together, each > 0 (the bench runner measures it with the firehose self-test), e.g. "
                    + "25:18000000,100:19000000. A listed level's climb ends at ceiling / N (end reason client_ceiling) "
                    + "instead of at the profile's max rate; an explicit --max-rate still wins. Default: none.")
    String clientCeilings;

    boolean adaptiveStart() {
        return !noAdaptiveStart;
    }

    /** The profile's search rules with these options. */
    SearchRules search(CommandSpec spec, Profile profile) {
        return Usage.parse(spec, "--refine-steps", () -> SearchRules.DEFAULT
                .withRefineSteps(refineSteps != null ? refineSteps : profile.refineSteps())
                .withConfirm(!noConfirm && profile.confirm()));
    }

    /**
     * The given start rates by level (empty without the option); each level must be one of the plan's.
     * With client ceilings and no explicit max rate a start may exceed the plan's max rate (up to
     * LevelCap's safety bound): a later repetition starts near where the first one saturated, which
     * can now be above it; a start above the level's own cap is lowered to the cap.
     */
    Map<Integer, Double> levelStartRates(CommandSpec spec, SweepPlan plan, boolean ceilingsApply) {
        double max = ceilingsApply ? Math.max(plan.maxRate(), LevelCap.SAFETY_MAX_RATE) : plan.maxRate();
        return levelStartRates == null ? Map.of()
                : Usage.parse(spec, "--level-start-rates", () -> LevelStart.parse(levelStartRates, plan, max));
    }

    /** The client's ceilings by level, messages/s received (empty without the option); each level must be one of the plan's. */
    Map<Integer, Double> clientCeilings(CommandSpec spec, SweepPlan plan) {
        return clientCeilings == null ? Map.of()
                : Usage.parse(spec, "--client-ceilings", () -> LevelStart.parse(clientCeilings, plan, Double.MAX_VALUE));
    }
}
