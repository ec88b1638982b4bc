package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.Phase;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointRules;
import sockbench.client.stats.PointState;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.stats.SearchRules;

/** The confirm/refine rules, driven by a model server whose capacity is known. */
class SaturationSearchTest {

    static final SweepPlan PLAN = SweepPlan.builder("custom").levels(List.of(10)).geometric(2.0)
            .startRate(100).stepS(1).settleS(0).warmupS(0).maxRate(1e6).build();

    static PointResult point(double rate, PointState state, Phase phase) {
        LatencySummary none = LatencySummary.of(LatencySummary.newHistogram());
        return PointResult.builder().targetRate(rate).durationS(1).sent((long) rate).sentPerS(rate)
                .received((long) rate * 10).receivedPerS(rate * 10).expectedReceived((long) rate * 10)
                .rtt(none).rttUncorrected(none).clientCpuPct(10).state(state).phase(phase).deliveredPct(100.0)
                .okStrict(state == PointState.OK).build();
    }

    /** Runs a whole level against {@code ok}: a rate is ok when it returns true. */
    static List<PointResult> run(SearchRules rules, DoublePredicate ok, List<String> endReason) {
        return run(new SaturationSearch(PLAN, rules, 10), ok, endReason);
    }

    static List<PointResult> run(SaturationSearch s, DoublePredicate ok, List<String> endReason) {
        List<PointResult> points = new ArrayList<>();
        SaturationSearch.Step step = s.first();
        while (step != null && points.size() < 100) {
            PointState st = ok.test(step.rate()) ? PointState.OK
                    : step.rate() > 5000 ? PointState.OVERLOADED : PointState.SATURATED;
            PointResult p = point(step.rate(), st, step.phase());
            boolean afterOverload = !points.isEmpty() && points.get(points.size() - 1).state() == PointState.OVERLOADED;
            assertEquals(afterOverload || step.phase() == Phase.CONFIRM, step.fresh(),
                    "fresh connections exactly after an overloaded point, and for every re-run");
            points.add(p);
            step = s.next(p);
        }
        endReason.add(s.endReason());
        return points;
    }

    static List<Double> rates(List<PointResult> points) {
        return points.stream().map(PointResult::targetRate).toList();
    }

    @Test
    void theKneeIsBisectedThreeTimesAndARefineFailureMakesTheReRunNeedless() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(SearchRules.DEFAULT, r -> r < 1000, end);
        // grid 100, 200, 400, 800 ok; 1600 bad; refine sqrt(800*1600)=1131 bad, then 951 ok, 1037 bad.
        // A refine point below 1600 failed, so whether 1600 was a stall cannot change the result: no re-run.
        assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 1600.0), rates(points.subList(0, 5)));
        assertTrue(points.stream().noneMatch(p -> p.phase() == Phase.CONFIRM));
        List<PointResult> refine = points.subList(5, points.size());
        assertEquals(3, refine.size());
        refine.forEach(p -> assertEquals(Phase.REFINE, p.phase()));
        assertEquals(Math.sqrt(800 * 1600), refine.get(0).targetRate(), 1e-6);
        assertEquals("saturated", end.get(0));
        SaturationPoint sat = SaturationPoint.of(points);
        // The bracket after three steps is 2^(1/8) wide: about 9 %, instead of the grid's 100 %.
        assertTrue(sat.targetRate() < 1000 && sat.upperTargetRate() > 1000, sat.toString());
        assertEquals(100 * (Math.pow(2, 1.0 / 8) - 1), sat.gridErrorPct(), 1e-6);
    }

    @Test
    void whenEveryRefineStepIsOkTheBadGridPointIsReRunBeforeTheLevelEnds() {
        List<String> end = new ArrayList<>();
        // The limit sits just under 1600: 1131, 1345, 1467 are ok, so 1600 decides the result.
        List<PointResult> points = run(SearchRules.DEFAULT, r -> r < 1590, end);
        PointResult last = points.get(points.size() - 1);
        assertEquals(Phase.CONFIRM, last.phase());
        assertEquals(1600.0, last.targetRate());
        assertEquals(9, points.size(), "4 ok grid points, the bad one, 3 refine steps, its re-run");
        assertEquals("saturated", end.get(0));
        assertEquals(1600.0, SaturationPoint.of(points).upperTargetRate());
    }

    @Test
    void aStallThatDoesNotReproduceDoesNotEndTheLevel() {
        int[] calls = {0};
        List<String> end = new ArrayList<>();
        // 400 fails once (a loopback stall), then is fine; the true limit is 1000.
        List<PointResult> points = run(SearchRules.DEFAULT, r -> {
            if (r == 400 && calls[0]++ == 0) {
                return false;
            }
            return r < 1000;
        }, end);
        // 100, 200 ok; 400 stalls; refine 283, 336, 367 all ok -> 400 is re-run, ok -> ramp on at 800.
        assertEquals(List.of(100.0, 200.0, 400.0), rates(points.subList(0, 3)));
        assertEquals(Phase.CONFIRM, points.get(6).phase());
        assertEquals(PointState.OK, points.get(6).state());
        assertEquals(800.0, points.get(7).targetRate(), "the ramp goes on after an ok confirm");
        assertTrue(SaturationPoint.of(points).targetRate() > 800);
    }

    @Test
    void refineAndConfirmCanBeTurnedOff() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(SearchRules.DEFAULT.withRefineSteps(0).withConfirm(false), r -> r < 1000, end);
        assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 1600.0), points.stream().map(PointResult::targetRate).toList());
        assertEquals(100.0, SaturationPoint.of(points).gridErrorPct(), 1e-9);
    }

    @Test
    void aLevelStartedHigherRampsFromItsStartRate() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(new SaturationSearch(PLAN, SearchRules.DEFAULT, 10, 400), r -> r < 1000, end);
        assertEquals(List.of(400.0, 800.0, 1600.0), rates(points.subList(0, 3)));
        assertTrue(SaturationPoint.of(points).targetRate() > 900);
        assertEquals("saturated", end.get(0));
    }

    @Test
    void aLevelWhoseHigherStartIsNotOkFallsBackToTheProfilesStartRate() {
        List<String> end = new ArrayList<>();
        SaturationSearch s = new SaturationSearch(PLAN, SearchRules.DEFAULT, 10, 3200);
        List<PointResult> points = run(s, r -> r < 1000, end);
        // 3200 bad, re-run bad, then the ramp from the plan's 100 as usual.
        assertEquals(List.of(3200.0, 3200.0, 100.0, 200.0, 400.0, 800.0, 1600.0), rates(points.subList(0, 7)));
        assertEquals(Phase.CONFIRM, points.get(1).phase());
        assertEquals(Phase.RAMP, points.get(2).phase());
        assertTrue(s.fellBack());
        SaturationPoint sat = SaturationPoint.of(points);
        assertTrue(sat.targetRate() > 900 && sat.targetRate() < 1000, sat.toString());
    }

    @Test
    void aStartThatWasOnlyAStallDoesNotFallBack() {
        int[] calls = {0};
        List<String> end = new ArrayList<>();
        SaturationSearch s = new SaturationSearch(PLAN, SearchRules.DEFAULT, 10, 400);
        List<PointResult> points = run(s, r -> (r != 400 || calls[0]++ > 0) && r < 1000, end);
        assertEquals(List.of(400.0, 400.0, 800.0), rates(points.subList(0, 3)));
        assertEquals(false, s.fellBack());
    }

    @Test
    void aLevelBadFromThePlansStartRateEndsAfterTheConfirmation() {
        List<String> end = new ArrayList<>();
        SaturationSearch s = new SaturationSearch(PLAN, SearchRules.DEFAULT, 10, 100);
        List<PointResult> points = run(s, r -> false, end);
        assertEquals(2, points.size(), "no fallback below the plan's start rate");
        assertNull(SaturationPoint.of(points));
    }

    @Test
    void aLevelBadFromItsFirstPointEndsAfterTheConfirmationWithoutRefining() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(SearchRules.DEFAULT, r -> false, end);
        assertEquals(2, points.size(), "grid point and its confirmation");
        assertNull(SaturationPoint.of(points));
        assertEquals("saturated", end.get(0));
    }

    @Test
    void theMaxRateEndsALevelThatNeverSaturates() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(SearchRules.DEFAULT, r -> true, end);
        assertEquals("max_rate", end.get(0));
        assertTrue(points.stream().allMatch(p -> p.phase() == Phase.RAMP));
    }

    @Test
    void backlogGrowingRule() {
        SearchRules r = SearchRules.DEFAULT;
        assertFalse(PointRules.backlogGrowing(10.0, 30.0, r), "+20 ms is not more than max(20, 5)");
        assertTrue(PointRules.backlogGrowing(10.0, 30.1, r));
        assertFalse(PointRules.backlogGrowing(100.0, 150.0, r), "+50 % is not more than 50 %");
        assertTrue(PointRules.backlogGrowing(100.0, 150.1, r));
        assertFalse(PointRules.backlogGrowing(100.0, 20.0, r), "a shrinking queue is fine");
        assertFalse(PointRules.backlogGrowing(null, 500.0, r), "no verdict without samples");
    }

    @Test
    void strictOkNeedsEveryCondition() {
        SearchRules r = SearchRules.DEFAULT;
        assertTrue(PointRules.okStrict(PointState.OK, false, 97.0, false, r));
        assertFalse(PointRules.okStrict(PointState.SATURATED, false, 100.0, false, r), "mean over 200 ms");
        assertFalse(PointRules.okStrict(PointState.OK, true, 100.0, false, r), "backlog growing");
        assertFalse(PointRules.okStrict(PointState.OK, false, 96.9, false, r), "under 97 % delivered");
        assertFalse(PointRules.okStrict(PointState.OK, false, 100.0, true, r), "client-bound");
        assertFalse(PointRules.okStrict(PointState.OK, false, null, false, r), "nothing expected");
        assertEquals(50.0, PointRules.deliveredPct(5, 10));
        assertNull(PointRules.deliveredPct(0, 0));
    }

    @Test
    void strictSaturationIsBracketedByTheFirstStrictFailureAbove() {
        List<PointResult> pts = new ArrayList<>();
        pts.add(point(100, PointState.OK, Phase.RAMP));
        pts.add(point(200, PointState.OK, Phase.RAMP));
        LatencySummary none = LatencySummary.of(LatencySummary.newHistogram());
        // ok by mean but backlog growing: not strict
        pts.add(PointResult.builder().targetRate(300).durationS(1).sent(300).sentPerS(300)
                .received(3000).receivedPerS(3000).expectedReceived(3000).rtt(none).rttUncorrected(none)
                .clientCpuPct(10).state(PointState.OK).phase(Phase.REFINE).order(3).deliveredPct(100.0)
                .rttFirstHalfMeanMs(10.0).rttSecondHalfMeanMs(90.0).backlogGrowing(true).okStrict(false).stealPct(0.1)
                .build());
        pts.add(point(400, PointState.SATURATED, Phase.RAMP));
        assertEquals(300, SaturationPoint.of(pts).targetRate());
        assertEquals(400, SaturationPoint.of(pts).upperTargetRate());
        assertEquals(200, SaturationPoint.strict(pts).targetRate());
        assertEquals(300, SaturationPoint.strict(pts).upperTargetRate());
    }

    /** A search at PLAN's level 10 under the client ceiling {@code ceilingPerS} (messages/s received). */
    static SaturationSearch underCeiling(double ceilingPerS) {
        return underCeiling(PLAN, false, ceilingPerS);
    }

    /**
     * A search at level 10 of {@code plan} under the client ceiling {@code ceilingPerS} (messages/s received);
     * {@code maxRateGiven}: the plan's max rate was given as --max-rate.
     */
    static SaturationSearch underCeiling(SweepPlan plan, boolean maxRateGiven, double ceilingPerS) {
        return new SaturationSearch(plan, SearchRules.DEFAULT, 10, plan.startRate(),
                LevelCap.of(plan, maxRateGiven, java.util.Map.of(10, ceilingPerS), 10));
    }

    /** PLAN with a max rate of 1,000, far under a 50,000/s ceiling's cap at level 10 (5,000). */
    static final SweepPlan MAX_RATE_1000 = PLAN.toBuilder().maxRate(1000).build();

    @Test
    void aLevelThatNeverSaturatesEndsAtTheClientCeilingWithOneLastPointAtTheCap() {
        List<String> end = new ArrayList<>();
        // 50,000 received/s at 10 connections: the cap is 5,000 sent/s, far under the plan's max rate (1e6).
        List<PointResult> points = run(underCeiling(50_000), r -> true, end);
        assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0, 5000.0), rates(points),
                "the grid up to 3,200, then 6,400 would exceed the cap: one last point at the cap itself");
        assertEquals("client_ceiling", end.get(0));
        assertTrue(points.stream().allMatch(p -> p.phase() == Phase.RAMP));
    }

    @Test
    void noPointAtTheCapWhenTheLastOkRateIsWithinTheFinalBracketBelowIt() {
        List<String> end = new ArrayList<>();
        // cap 3,300: 3,200 × 2^(1/8) = 3,490 > 3,300, so a point at the cap could not tell the refinement anything.
        List<PointResult> points = run(underCeiling(33_000), r -> true, end);
        assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0), rates(points));
        assertEquals("client_ceiling", end.get(0));
    }

    @Test
    void aServerThatSaturatesBelowTheCeilingEndsSaturatedAsWithoutIt() {
        List<String> withCap = new ArrayList<>();
        List<String> without = new ArrayList<>();
        List<PointResult> capped = run(underCeiling(50_000), r -> r < 1000, withCap);
        List<PointResult> plain = run(SearchRules.DEFAULT, r -> r < 1000, without);
        assertEquals(rates(plain), rates(capped));
        assertEquals("saturated", withCap.get(0));
        assertEquals("saturated", without.get(0));
    }

    @Test
    void aFailedPointAtTheCapIsRefinedLikeAnyBadRampPoint() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(underCeiling(50_000), r -> r < 4500, end);
        assertEquals(5000.0, points.get(6).targetRate());
        assertEquals(Phase.RAMP, points.get(6).phase());
        List<PointResult> refine = points.subList(7, points.size());
        assertEquals(Math.sqrt(3200 * 5000), refine.get(0).targetRate(), 1e-6, "bisected between 3,200 and the cap");
        assertTrue(refine.stream().allMatch(p -> p.phase() == Phase.REFINE && p.targetRate() < 5000), rates(refine).toString());
        assertEquals("saturated", end.get(0));
        SaturationPoint sat = SaturationPoint.of(points);
        assertTrue(sat.targetRate() < 4500 && sat.upperTargetRate() > 4500, sat.toString());
    }

    @Test
    void theClientCeilingLiftsTheProfilesMaxRate() {
        // The plan's max rate (1,000 here) would end the level at 800; the ceiling's cap, 5,000, is what counts.
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(underCeiling(MAX_RATE_1000, false, 50_000), r -> true, end);
        assertEquals(5000.0, points.get(points.size() - 1).targetRate());
        assertEquals("client_ceiling", end.get(0));
    }

    @Test
    void anExplicitMaxRateStillEndsTheLevelAsMaxRate() {
        List<String> end = new ArrayList<>();
        List<PointResult> points = run(underCeiling(MAX_RATE_1000, true, 50_000), r -> true, end);
        assertEquals(List.of(100.0, 200.0, 400.0, 800.0), rates(points), "no point at the bound: the plain grid");
        assertEquals("max_rate", end.get(0));
    }
}
