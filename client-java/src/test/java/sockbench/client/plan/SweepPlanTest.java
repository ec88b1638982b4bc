package sockbench.client.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPlanTest {

    @Test
    void legacyIsTheOriginalSchedule() {
        SweepPlan p = Profile.LEGACY.plan();
        assertEquals(List.of(25, 50, 75, 100, 200, 300, 400, 500, 750, 1000, 1250, 1500, 2000), p.levels());
        assertEquals(Ramp.ADDITIVE, p.ramp());
        assertEquals(1, p.startRate());
        assertEquals(3, p.stepS());
        assertEquals(1, p.settleS());
        assertEquals("max(1, 1000/N)", p.rateStepRule());
        assertNull(p.nextLevelStartFraction(), "every level starts at 1 msg/s, as the original did");
        assertEquals(List.of(1.0, 41.0, 81.0), p.rates(25).subList(0, 3));
        assertEquals(List.of(1.0, 2.0, 3.0), p.rates(2000).subList(0, 3), "1000/2000 rounds to 0, so the step is 1");
        assertEquals(List.of(1.0, 2.0), p.rates(750).subList(0, 2), "integer division: 1000/750 = 1");
        assertEquals(14.0, p.rates(75).get(1), "1000/75 = 13");
    }

    @Test
    void standardIsGeometricOnTheIssuesLevels() {
        SweepPlan p = Profile.STANDARD.plan();
        assertEquals(List.of(25, 50, 100, 200, 500, 1000, 2000), p.levels());
        assertEquals(Ramp.GEOMETRIC, p.ramp());
        assertEquals(2.0, p.rateFactor());
        assertEquals(2, p.stepS());
        assertEquals(0.5, p.settleS());
        assertEquals(0.25, p.nextLevelStartFraction());
        assertNull(p.rateStepRule());
        List<Double> r = p.rates(100);
        assertEquals(10, r.get(0));
        assertEquals(20, r.get(1), 1e-9);
        assertTrue(r.get(r.size() - 1) <= p.maxRate());
        assertTrue(r.get(r.size() - 1) * 2 > p.maxRate());
    }

    @Test
    void fullIsLegacyLevelsWithTheGeometricRamp() {
        assertEquals(Profile.LEGACY.plan().levels(), Profile.FULL.plan().levels());
        assertEquals(Ramp.GEOMETRIC, Profile.FULL.plan().ramp());
        assertEquals(List.of(25, 100, 500), Profile.QUICK.plan().levels());
    }

    @Test
    void smokeIsTinyAndBounded() {
        SweepPlan p = Profile.SMOKE.plan();
        assertEquals(List.of(20.0, 40.0, 80.0), p.rates(2));
        double seconds = 0;
        for (int n : p.levels()) {
            seconds += p.rates(n).size() * (p.warmupS() + p.stepS() + p.settleS()) + 1 + p.settleS();
        }
        assertTrue(seconds < 15, "smoke sweep takes " + seconds + " s");
    }

    @Test
    void warmupIsOneShortLevelOfFiveRates() {
        SweepPlan p = Profile.WARMUP.plan();
        assertEquals("warmup", p.profile());
        assertEquals(List.of(50), p.levels());
        assertEquals(List.of(200.0, 400.0, 800.0, 1600.0, 3200.0), p.rates(50));
        assertEquals(1, p.stepS());
        assertEquals(0.2, p.settleS());
        assertEquals(0.5, p.warmupS());
    }

    @Test
    void sessionsPacesItsConnectsHoldsIdleAndTimesEveryCopy() {
        SweepPlan p = Profile.SESSIONS.plan();
        assertEquals("sessions", p.profile());
        assertEquals(List.of(1000, 2000, 5000, 10000, 19000, 50000, 100000), p.levels());
        assertEquals(Ramp.GEOMETRIC, p.ramp());
        assertEquals(Math.sqrt(5), p.rateFactor(), "two steps from 1 msg/s land on 5 msgs/s, the fixed rate");
        assertEquals(1, p.startRate());
        assertEquals(100_000, p.maxRate());
        assertEquals(2, p.stepS());
        assertEquals(0.5, p.warmupS());
        assertEquals(0.5, p.settleS());
        assertNull(p.nextLevelStartFraction(), "every level ramps from 1 msg/s, through 5 msgs/s");
        assertEquals(3, Profile.SESSIONS.refineSteps());
        assertTrue(Profile.SESSIONS.confirm());
        assertNull(Profile.SESSIONS.laterRepetitionStartFraction(), "every repetition ramps through 5 msgs/s too");
        assertTrue(p.allCopies());
        assertEquals("all_copies_p99", p.verdict());
        assertEquals(30, p.idleHoldS(), "longer than SockJS's 25 s heartbeat");
        assertEquals(2000, p.connectRatePerS());
    }

    @Test
    void everyOtherProfileKeepsTodaysOwnCopyVerdictWithoutHoldOrPacing() {
        for (Profile profile : Profile.values()) {
            if (profile == Profile.SESSIONS) {
                continue;
            }
            SweepPlan p = profile.plan();
            assertEquals(false, p.allCopies(), profile.jsonName());
            assertEquals("own_mean", p.verdict(), profile.jsonName());
            assertEquals(0, p.idleHoldS(), profile.jsonName());
            assertEquals(0, p.connectRatePerS(), profile.jsonName());
        }
    }

    @Test
    void idleHoldAndConnectRateOutsideTheirRangesAreRejected() {
        SweepPlan.Builder b = Profile.SESSIONS.plan().toBuilder();
        assertThrows(IllegalArgumentException.class, () -> b.idleHoldS(-1).build());
        assertThrows(IllegalArgumentException.class, () -> b.idleHoldS(3601).build());
        assertThrows(IllegalArgumentException.class, () -> Profile.SESSIONS.plan().toBuilder().connectRatePerS(-1).build());
        assertThrows(IllegalArgumentException.class, () -> Profile.SESSIONS.plan().toBuilder().connectRatePerS(1e6 + 1).build());
        assertEquals(Profile.SESSIONS.plan(), Profile.SESSIONS.plan().toBuilder().build(), "toBuilder keeps the new fields");
    }

    @Test
    void everyProfileBuildsItsPlanUnderItsOwnName() {
        for (Profile profile : Profile.values()) {
            assertEquals(profile.jsonName(), profile.plan().profile());
            Double f = profile.laterRepetitionStartFraction();
            assertTrue(f == null || (f > 0 && f <= 1), profile + ": " + f);
        }
    }

    @Test
    void theBuilderChangesOnlyTheNamedField() {
        SweepPlan p = Profile.STANDARD.plan();
        assertEquals(p, p.toBuilder().build());
        SweepPlan q = p.toBuilder().stepS(7).build();
        assertEquals(7, q.stepS());
        assertEquals(p.withLevels(List.of(1)).levels(), List.of(1));
        assertEquals(p.settleS(), q.settleS());
        assertEquals(p.levels(), q.levels());
        assertThrows(IllegalArgumentException.class, () -> SweepPlan.builder("x").levels(1).geometric(2).build(),
                "a field left unset fails the checks");
    }

    @Test
    void invalidPlansAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of()).geometric(2)
                        .startRate(1).stepS(1).settleS(1).warmupS(1).maxRate(10).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(0)).geometric(2)
                        .startRate(1).stepS(1).settleS(1).warmupS(1).maxRate(10).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).geometric(1.0)
                        .startRate(1).stepS(1).settleS(1).warmupS(1).maxRate(10).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).geometric(2)
                        .startRate(100).stepS(1).settleS(1).warmupS(1).maxRate(10).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).ramp(Ramp.ADDITIVE).rateFactor(0)
                        .startRate(1).stepS(0).settleS(1).warmupS(1).maxRate(10).build());
    }
}
