package sockbench.client.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open-files pre-check reads the soft limit from a limits file and refuses a level in one line. */
class OpenFilesLimitTest {

    private static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max cpu time              unlimited            unlimited            seconds
            Max open files            20000                20000                files
            Max locked memory         8388608              8388608              bytes
            """;

    @Test
    void theSoftLimitIsReadFromTheMaxOpenFilesLine(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("limits"), LIMITS);
        assertEquals(20000, OpenFilesLimit.softLimit(f).getAsLong());
        Path unlimited = Files.writeString(dir.resolve("unlimited"),
                LIMITS.replace("20000                20000", "unlimited            unlimited"));
        assertTrue(OpenFilesLimit.softLimit(unlimited).isEmpty(), "unlimited: nothing to check");
        assertTrue(OpenFilesLimit.softLimit(dir.resolve("missing")).isEmpty(), "unreadable: no false refusal");
    }

    @Test
    void aLevelBeyondOneProcesssLimitIsRefusedWithTheAgentsItNeeds() {
        assertEquals("sockbench: level 50000 needs 50064 open files in one client process but this process may hold "
                + "20000 (ulimit -n); run the level with --agents 3 (AGENTS=3) or lower --levels",
                OpenFilesLimit.refusal(50000, 1, 20000));
    }

    @Test
    void aLevelSplitOverEnoughAgentsOrWithinTheLimitPasses() {
        assertNull(OpenFilesLimit.refusal(19000, 1, 20000), "19,000 + 64 spare fit 20,000");
        assertNull(OpenFilesLimit.refusal(50000, 3, 20000), "three agents hold 16,667 each");
        assertTrue(OpenFilesLimit.refusal(19937, 1, 20000) != null, "19,937 + 64 = 20,001 does not");
    }

    @Test
    void thisProcesssOwnLimitIsReadable() {
        assertTrue(OpenFilesLimit.softLimit(OpenFilesLimit.SELF).orElse(Long.MAX_VALUE) > 64);
    }
}
