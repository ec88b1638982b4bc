package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PointScheduleTest {

    @Test
    void messagesAreOnAFixedGridSpreadOverClients() {
        PointSchedule s = PointSchedule.of(100, 4, 1_000_000_000L, 0.5, 3, 2, 64);
        assertEquals(50, s.warmupCount());
        assertEquals(300, s.measureCount());
        assertEquals(4, s.warmupEpoch());
        assertEquals(5, s.measureEpoch());
        assertEquals(1_000_000_000L, s.dueNs(0));
        assertEquals(1_010_000_000L, s.dueNs(1));
        assertEquals(0, s.clientOf(0));
        assertEquals(3, s.clientOf(7));
        // Each client sends every N / rate = 40 ms.
        assertEquals(40_000_000L, s.dueNs(5) - s.dueNs(1));
        assertFalse(s.isMeasured(49));
        assertTrue(s.isMeasured(50));
        assertEquals(s.dueNs(50), s.windowStartNs());
        assertEquals(s.dueNs(350), s.windowEndNs());
        assertEquals(3.0, s.windowS(), 1e-9);
    }

    @Test
    void lowRatesStillMeasureAtLeastOneMessage() {
        PointSchedule s = PointSchedule.of(0.1, 2000, 0, 0.5, 3, 0, 64);
        assertEquals(1, s.warmupCount());
        assertEquals(1, s.measureCount());
        assertEquals(10.0, s.windowS(), 1e-9, "window = one message interval");
    }

    @Test
    void noWarmupStartsTheWindowAtOnce() {
        PointSchedule s = PointSchedule.of(10, 3, 5, 0, 1, 0, 64);
        assertEquals(0, s.warmupCount());
        assertEquals(5, s.windowStartNs());
        assertEquals(10, s.measureCount());
    }
}
