package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.stats.SearchRules;

/**
 * The time budget of the runner's matrix (8 servers × 3 repetitions, PROFILE=standard) in 90 min,
 * i.e. about 3.5 min per server run including the server's start and warm-up. Walks the real
 * search ({@link SaturationSearch}, {@link LevelStart}) against model servers whose received/s
 * capacity is known, and adds up the time a run takes with costs measured on this machine:
 * per point warm-up + window + settle (+ 50 ms of scheduling), the drain of an overloaded point
 * (the backlog built during warm-up and window), and opening N connections (≈ 0.2 s + 1.5 ms per
 * connection: results/reference connect_s, PyPy, up to 3.4 s at N = 2000) for each level and each
 * point on fresh connections.
 */
class StandardBudgetTest {

    static final SweepPlan PLAN = Profile.STANDARD.plan();
    static final SearchRules RULES = SearchRules.DEFAULT.withRefineSteps(Profile.STANDARD.refineSteps())
            .withConfirm(Profile.STANDARD.confirm());

    record Run(double seconds, Map<Integer, Double> saturationTargets, int points) {
    }

    static double openS(int n) {
        return 0.2 + n * 0.0015;
    }

    /** One run against a server that handles {@code capacity.get(n)} received messages/s at level n. */
    static Run run(Map<Integer, Double> capacity, Map<Integer, Double> given) {
        return run(capacity, given, Map.of());
    }

    /**
     * The same with the client's ceiling per level ({@code --client-ceilings}, received messages/s):
     * each level climbs to ceiling / N instead of the profile's max rate, and the client receives at
     * most its ceiling, so a server faster than that saturates at the ceiling.
     */
    static Run run(Map<Integer, Double> capacity, Map<Integer, Double> given, Map<Integer, Double> ceilings) {
        double pointS = PLAN.warmupS() + PLAN.stepS() + PLAN.settleS() + 0.05;
        double seconds = 0;
        int points = 0;
        Double lastKnee = null;
        Map<Integer, Double> sat = new HashMap<>();
        LevelStart starts = new LevelStart(PLAN, given);
        for (int n : PLAN.levels()) {
            double c = Math.min(capacity.get(n), ceilings.getOrDefault(n, Double.MAX_VALUE));
            seconds += openS(n) + 0.3 + PLAN.settleS();
            LevelCap cap = LevelCap.of(PLAN, false, ceilings, n);
            SaturationSearch s = new SaturationSearch(PLAN, RULES, n, starts.startFor(n, lastKnee, cap.rate()), cap);
            List<PointResult> pts = new ArrayList<>();
            SaturationSearch.Step step = s.first();
            while (step != null) {
                double load = step.rate() * n / c;
                // Mean RTT ≈ (load − 1) × (warm-up + window / 2): ≥ 1.5 s (overloaded) from about twice the capacity.
                PointState st = load < 1 ? PointState.OK : load < 2 ? PointState.SATURATED : PointState.OVERLOADED;
                if (step.fresh()) {
                    seconds += 0.3 + PLAN.settleS() + openS(n);
                }
                seconds += pointS;
                if (load >= 1) { // drain the backlog built over warm-up + window, beyond the settle pause
                    seconds += Math.max(0, Math.min(5, (load - 1) * (PLAN.warmupS() + PLAN.stepS())) - PLAN.settleS());
                }
                PointResult p = SaturationSearchTest.point(step.rate(), st, step.phase());
                pts.add(p);
                step = s.next(p);
            }
            points += pts.size();
            SaturationPoint sp = SaturationPoint.of(pts);
            if (sp != null) {
                lastKnee = sp.targetRate() * n;
                sat.put(n, sp.targetRate());
            }
        }
        return new Run(seconds, sat, points);
    }

    /**
     * Repetitions 2..3 as the runner (bench/) runs them: each level from the profile's
     * later_repetition_start_fraction of repetition 1's saturation rate.
     */
    static Map<Integer, Double> repetitionStarts(Run first) {
        double fraction = Profile.STANDARD.laterRepetitionStartFraction();
        Map<Integer, Double> out = new HashMap<>();
        first.saturationTargets().forEach((n, t) -> out.put(n, Math.max(PLAN.startRate(), fraction * t)));
        return out;
    }

    static Map<Integer, Double> flat(double c) {
        Map<Integer, Double> m = new HashMap<>();
        PLAN.levels().forEach(n -> m.put(n, c));
        return m;
    }

    @Test
    void threeRepetitionsOfOneServerFitTenAndAHalfMinutes() {
        // Capacities spanning the reference set: sockjs-tornado on CPython (15-28k received/s), the naive
        // servers (40-70k), sockjs-node (50-100k), the fast servers (0.5-2.3 M), and a falling one.
        Map<Integer, Double> falling = new HashMap<>(Map.of(25, 830_000.0, 50, 1_200_000.0, 100, 2_300_000.0,
                200, 2_000_000.0, 500, 2_000_000.0, 1000, 1_700_000.0, 2000, 460_000.0));
        List<Map<Integer, Double>> servers = List.of(flat(20_000), flat(50_000), flat(80_000), flat(2_000_000), falling);
        double total = 0;
        StringBuilder report = new StringBuilder();
        for (Map<Integer, Double> cap : servers) {
            Run first = run(cap, Map.of());
            Run again = run(cap, repetitionStarts(first));
            double three = first.seconds() + 2 * again.seconds();
            total += three;
            report.append(String.format(Locale.ROOT, "capacity %s: repetition 1 %.0f s (%d points), 2 and 3 %.0f s (%d points); "
                    + "3 repetitions %.1f min%n", cap.get(100), first.seconds(), first.points(), again.seconds(),
                    again.points(), three / 60));
            assertTrue(three <= 10.5 * 60, report.toString());
        }
        double perRun = total / servers.size() / 3;
        report.append(String.format(Locale.ROOT, "mean per run %.0f s; 24 runs %.1f min before server starts%n",
                perRun, perRun * 24 / 60));
        System.out.print(report);
        assertTrue(perRun * 24 <= 85 * 60, report.toString());
    }

    /**
     * What the client's ceiling costs: the fast servers' levels that used to end at max_rate (81,920
     * sent/s on the ×2 grid) now climb to their knee or the ceiling and are refined there. Model
     * servers: the five above, plus PyPy fast's and sockjs-node fast's range past the old constant
     * (8 M received/s) and one beyond the client (40 M: its levels end at the ceiling). Ceiling: the
     * firehose's standing figure at 1 message per frame, 18.8 M received/s (client-java README).
     */
    @Test
    void underTheClientsCeilingTheMatrixStillFitsItsBudget() {
        Map<Integer, Double> falling = new HashMap<>(Map.of(25, 830_000.0, 50, 1_200_000.0, 100, 2_300_000.0,
                200, 2_000_000.0, 500, 2_000_000.0, 1000, 1_700_000.0, 2000, 460_000.0));
        List<Map<Integer, Double>> servers = List.of(flat(20_000), flat(50_000), flat(80_000), flat(2_000_000), falling,
                flat(8_000_000), flat(40_000_000));
        Map<Integer, Double> ceilings = flat(18_800_000);
        double before = 0;
        double after = 0;
        StringBuilder report = new StringBuilder();
        for (Map<Integer, Double> cap : servers) {
            Run oldFirst = run(cap, Map.of());
            Run oldAgain = run(cap, repetitionStarts(oldFirst));
            Run first = run(cap, Map.of(), ceilings);
            Run again = run(cap, repetitionStarts(first, ceilings), ceilings);
            double was = oldFirst.seconds() + 2 * oldAgain.seconds();
            double now = first.seconds() + 2 * again.seconds();
            before += was;
            after += now;
            report.append(String.format(Locale.ROOT, "capacity %s: 3 repetitions %.1f min at max_rate, %.1f min under the "
                    + "ceiling (%d + 2 x %d points)%n", cap.get(100), was / 60, now / 60, first.points(), again.points()));
            assertTrue(now <= 12 * 60, report.toString());
        }
        double perRun = after / servers.size() / 3;
        report.append(String.format(Locale.ROOT, "mean per run %.0f s under the ceiling (%.0f s at max_rate); "
                + "24 runs %.1f min before server starts (%.1f at max_rate)%n", perRun, before / servers.size() / 3,
                perRun * 24 / 60, before / servers.size() / 3 * 24 / 60));
        System.out.print(report);
        assertTrue(perRun * 24 <= 85 * 60, report.toString());
    }

    /** {@link #repetitionStarts(Run)} under the client's ceilings: a start may exceed max rate, not the level's cap. */
    static Map<Integer, Double> repetitionStarts(Run first, Map<Integer, Double> ceilings) {
        Map<Integer, Double> out = new HashMap<>();
        repetitionStarts(first).forEach((n, r) -> out.put(n, Math.min(r, LevelCap.of(PLAN, false, ceilings, n).rate())));
        return out;
    }

    @Test
    void refineNarrowsTheCoarseGridToUnderFivePercent() {
        double bracket = Math.pow(PLAN.rateFactor(), 1.0 / (1 << RULES.refineSteps()));
        assertTrue(bracket - 1 < 0.05, "grid error " + (bracket - 1));
        assertTrue(Phase.REFINE != null);
    }
}
