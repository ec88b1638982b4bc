package sockbench.client.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StealMeterTest {

    static final String BEFORE = "cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 50 0 25 400 5 0 2 18 0 0\nintr 1\n";
    static final String AFTER = "cpu  150 0 60 860 10 0 5 115 7 0\ncpu0 75 0 30 430 5 0 2 58 0 0\nintr 2\n";

    @Test
    void stealIsAShareOfAllCpuTimeFromTheAggregateLine() {
        StealMeter.Times a = StealMeter.parse(BEFORE);
        StealMeter.Times b = StealMeter.parse(AFTER);
        assertEquals(1000, a.total()); // user..steal; guest is inside user already
        assertEquals(35, a.steal());
        // delta total = 50 + 10 + 60 + 80 = 200, delta steal = 80
        assertEquals(40.0, StealMeter.percent(a, b), 1e-9);
    }

    @Test
    void missingOrMalformedReadingsGiveNullOrAClearError() {
        assertNull(StealMeter.percent(null, StealMeter.parse(AFTER)));
        assertNull(StealMeter.percent(StealMeter.parse(AFTER), StealMeter.parse(AFTER)), "no time passed");
        assertThrows(IllegalArgumentException.class, () -> StealMeter.parse("cpu0 1 2 3\n"));
        assertThrows(IllegalArgumentException.class, () -> StealMeter.parse("cpu  1 2 3 4\n"));
    }

    @Test
    void theRealProcStatIsReadable() {
        StealMeter.Times t = StealMeter.read();
        assertNotNull(t, "/proc/stat on Linux");
        assertTrue(t.total() > 0 && t.steal() >= 0 && t.steal() <= t.total());
    }
}
