package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;
import sockbench.client.plan.Ramp;
import sockbench.client.plan.SweepPlan;

/** Where a level's ramp starts: the adaptive rule, its clamps, given rates and their parsing. */
class LevelStartTest {

    static final SweepPlan PLAN = SweepPlan.builder("custom").levels(List.of(25, 100, 1000)).geometric(2)
            .startRate(10).stepS(1).settleS(0).warmupS(0).maxRate(100_000).nextLevelStartFraction(0.25).build();

    @Test
    void aLevelStartsAtTheFractionOfThePreviousKneeDividedByItsConcurrency() {
        // 400,000 received/s at the last knee: at N = 100 that is 4,000 sent/s; a quarter of it.
        assertEquals(1000.0, LevelStart.adaptive(PLAN, 100, 400_000.0), 1e-9);
        assertEquals(100.0, LevelStart.adaptive(PLAN, 1000, 400_000.0), 1e-9);
    }

    @Test
    void theStartIsClampedToTheStartAndMaxRates() {
        assertEquals(10.0, LevelStart.adaptive(PLAN, 1000, 20_000.0), "5/s predicted: the start rate is the floor");
        assertEquals(100_000.0, LevelStart.adaptive(PLAN, 25, 1e12), "capped at the max rate");
    }

    @Test
    void withoutAKneeOrAFractionTheLevelStartsAtTheStartRate() {
        assertEquals(10.0, LevelStart.adaptive(PLAN, 100, null), "the first level, or no level saturated yet");
        assertEquals(10.0, LevelStart.adaptive(PLAN.withoutAdaptiveStart(), 100, 400_000.0), "--no-adaptive-start");
        assertEquals(1.0, LevelStart.adaptive(Profile.LEGACY.plan(), 100, 400_000.0), "legacy keeps its schedule");
    }

    @Test
    void aGivenRateOverridesTheRuleForItsLevelOnly() {
        LevelStart s = new LevelStart(PLAN, Map.of(100, 4800.0));
        assertEquals(4800.0, s.startFor(100, 400_000.0));
        assertEquals(4800.0, s.startFor(100, null));
        assertEquals(100.0, s.startFor(1000, 400_000.0));
    }

    @Test
    void levelStartRatesAreParsed() {
        assertEquals(Map.of(25, 12000.0, 100, 4800.5), LevelStart.parse("25:12000, 100:4800.5", PLAN));
        assertEquals(List.of(100, 25), List.copyOf(LevelStart.parse("100:1,25:2", PLAN).keySet()), "in the given order");
    }

    @Test
    void badLevelStartRatesNameTheProblem() {
        String[][] cases = {
            {"", "empty"},
            {"25", "not N:RATE"},
            {"25:x", "not N:RATE"},
            {"x:5", "not N:RATE"},
            {"25:5,", "not N:RATE"},
            {"30:5", "not one of the sweep's levels"},
            {"25:0", "must be > 0"},
            {"25:-3", "must be > 0"},
            {"25:100001", "<= the max rate"},
            {"25:NaN", "must be > 0"},
            {"25:5,25:6", "given twice"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LevelStart.parse(c[0], PLAN), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
        }
    }

    @Test
    void theFractionNeedsTheGeometricRampAndARangeOfZeroToOne() {
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).ramp(Ramp.ADDITIVE).rateFactor(0)
                        .startRate(1).stepS(1).settleS(0).warmupS(0).maxRate(10).nextLevelStartFraction(0.25).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).geometric(2)
                        .startRate(1).stepS(1).settleS(0).warmupS(0).maxRate(10).nextLevelStartFraction(0.0).build());
        assertThrows(IllegalArgumentException.class,
                () -> SweepPlan.builder("x").levels(List.of(1)).geometric(2)
                        .startRate(1).stepS(1).settleS(0).warmupS(0).maxRate(10).nextLevelStartFraction(1.5).build());
    }
}
