package sockbench.client.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SamplingTest {

    @Test
    void cpuLists() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), CpuList.parse("0-3,8,10-11\n"));
        assertEquals(List.of(1), CpuList.parse("1"));
        assertEquals(List.of(), CpuList.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("3-1"));
    }

    @Test
    void statFieldsEvenWithSpacesInTheCommandName() {
        String stat = "4242 (my (weird) cmd) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 0 0 20 0 3 0 99 1000 50 "
                + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        assertEquals(1234 + 567, ProcFiles.parseCpuTicks(stat));
        assertEquals(789, ProcFiles.parseRssPages("12345 789 100 10 0 500 0\n"));
    }

    @Test
    void readsThisProcess() throws Exception {
        assertTrue(ProcFiles.rssBytes("self") > 1024 * 1024);
        assertTrue(ProcFiles.cpuTicks("self") >= 0);
        assertFalse(ProcFiles.allowedCpus("self").isEmpty());
        assertEquals(List.of(), ProcFiles.allowedCpus("999999999"), "unknown process: empty, no exception");
    }

    @Test
    void samplerMeasuresBusyCpu() throws Exception {
        try (ProcessSampler s = new ProcessSampler("self", 20)) {
            ProcessSampler.Sample a = s.latest();
            assertNotNull(a);
            long end = System.nanoTime() + 300_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += System.nanoTime() % 7; // burn CPU
            }
            Thread.sleep(50);
            ProcessSampler.Sample b = s.latest();
            Double pct = ProcessSampler.cpuPercent(a, b);
            assertNotNull(pct);
            assertTrue(pct > 10 && x >= 0, "busy loop shows CPU use: " + pct);
        }
        assertNull(ProcessSampler.cpuPercent(null, null));
    }

    @Test
    void machineInfo() {
        MachineInfo m = MachineInfo.read();
        assertTrue(m.cores() >= 1);
        assertTrue(m.memoryBytes() > 0);
        assertFalse(m.kernel().isBlank());
    }
}
