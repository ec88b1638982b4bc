package sockbench.client.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.SweepPlan;

/** Where a level's climb stops: the client's ceiling / N, the plan's max rate, or an explicit one. */
class LevelCapTest {

    static final SweepPlan PLAN = SweepPlan.builder("standard").levels(List.of(25, 100, 1000)).geometric(2)
            .startRate(10).stepS(1).settleS(0).warmupS(0).maxRate(100_000).nextLevelStartFraction(0.25).build();

    static final Map<Integer, Double> CEILINGS = Map.of(25, 20_000_000.0, 100, 25_000_000.0);

    @Test
    void aMeasuredCeilingCapsTheSentRateAtCeilingOverConnections() {
        LevelCap cap = LevelCap.of(PLAN, false, CEILINGS, 25);
        assertEquals(800_000.0, cap.rate(), 1e-9, "20 M received/s over 25 connections: 800,000 sent/s");
        assertEquals("client_ceiling", cap.reason());
        assertTrue(cap.isCeiling());
        assertEquals(20_000_000.0, cap.ceilingPerS());
        assertEquals(250_000.0, LevelCap.of(PLAN, false, CEILINGS, 100).rate(), 1e-9);
    }

    @Test
    void aLevelWithoutACeilingKeepsThePlansMaxRate() {
        LevelCap cap = LevelCap.of(PLAN, false, CEILINGS, 1000);
        assertEquals(100_000.0, cap.rate());
        assertEquals("max_rate", cap.reason());
        assertFalse(cap.isCeiling());
        assertNull(cap.ceilingPerS());
        assertEquals(cap, LevelCap.of(PLAN, false, Map.of(), 1000));
    }

    @Test
    void anExplicitMaxRateWinsButTheCeilingIsStillRecorded() {
        LevelCap cap = LevelCap.of(PLAN, true, CEILINGS, 25);
        assertEquals(100_000.0, cap.rate());
        assertEquals("max_rate", cap.reason());
        assertEquals(20_000_000.0, cap.ceilingPerS());
    }

    @Test
    void anAbsurdCeilingIsBoundedByTheSafetyMaxRate() {
        LevelCap cap = LevelCap.of(PLAN, false, Map.of(25, 1e12), 25);
        assertEquals(LevelCap.SAFETY_MAX_RATE, cap.rate());
        assertEquals("max_rate", cap.reason());
    }

    @Test
    void aCapMustBeAFiniteRateAndANamedReason() {
        assertThrows(IllegalArgumentException.class, () -> new LevelCap(0, "max_rate", null));
        assertThrows(IllegalArgumentException.class, () -> new LevelCap(Double.POSITIVE_INFINITY, "max_rate", null));
        assertThrows(IllegalArgumentException.class, () -> new LevelCap(10, "saturated", null));
    }

    @Test
    void aLevelStartIsClampedToTheLevelsCapNotThePlansMaxRate() {
        // A knee of 40 M received/s predicts 1.6 M sent/s at 25; a quarter is 400,000, above max_rate 100,000.
        assertEquals(400_000.0, LevelStart.adaptive(PLAN, 25, 40_000_000.0, 800_000.0), 1e-9);
        assertEquals(100_000.0, LevelStart.adaptive(PLAN, 25, 40_000_000.0), "without a ceiling: the max rate");
        LevelStart given = new LevelStart(PLAN, Map.of(25, 900_000.0));
        assertEquals(800_000.0, given.startFor(25, null, 800_000.0), "a given start above the cap is lowered to it");
    }

    @Test
    void ceilingsAndRaisedStartRatesParseAboveThePlansMaxRate() {
        assertEquals(Map.of(25, 2.0e7), LevelStart.parse("25:20000000", PLAN, Double.MAX_VALUE));
        assertEquals(Map.of(25, 300_000.0), LevelStart.parse("25:300000", PLAN, LevelCap.SAFETY_MAX_RATE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LevelStart.parse("25:300000", PLAN));
        assertTrue(e.getMessage().contains("<= the max rate"), e.getMessage());
    }
}
