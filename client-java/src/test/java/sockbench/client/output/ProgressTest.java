package sockbench.client.output;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;

class ProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** Progress lines into {@code bytes} for a sweep of {@code profile} whose level 25 has just connected. */
    private Progress atLevel25Connected(Profile profile) {
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        p.sweepStarted(profile.plan());
        p.levelConnected(25, 25, 0, 0.3);
        return p;
    }

    @Test
    void onePointLineWithStateAndEta() {
        Progress p = atLevel25Connected(Profile.STANDARD);
        p.point(25, ResultWritersTest.point(10, 30, 2.5), Profile.STANDARD.plan());
        p.warnings(List.of("level 25: something"), true);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("N=25"), out);
        assertTrue(out.contains("rate      10.0/s"), out);
        assertTrue(out.contains("rtt mean 2.50 p99 2.50 ms"), out);
        assertTrue(out.contains("ok"), out);
        assertTrue(out.contains("ETA ~"), out);
        assertTrue(out.contains("CLIENT-BOUND"), out);
        assertTrue(out.contains("warning: level 25: something"), out);
    }

    @Test
    void anAllCopiesPointShowsItsAllCopiesAndCompletionP99() {
        Progress p = atLevel25Connected(Profile.SESSIONS);
        var own = ResultWritersTest.point(10, 30, 2.5);
        var fanout = new sockbench.client.stats.LatencySummary(750, 9.0, 3.0, 1.0, 8.0, 12.0, 41.0, 50.0, 52.0);
        var completion = new sockbench.client.stats.CompletionSummary(30, 0, 20.0, 30.0, 48.0, 52.0);
        p.point(25, sockbench.client.stats.PointResult.builder().targetRate(10).durationS(3).sent(30).rtt(own.rtt())
                .rttUncorrected(own.rtt()).state(own.state()).phase(own.phase()).fanout(fanout).completion(completion)
                .build(), Profile.SESSIONS.plan());
        p.point(25, own, Profile.STANDARD.plan());
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        String allCopies = lines[lines.length - 2];
        assertTrue(allCopies.contains("all-copies p99 41.00 ms, completion p99 48.00 ms"), allCopies);
        assertTrue(!lines[lines.length - 1].contains("all-copies"), "an own-copy point's line is as before");
    }

    @Test
    void aChurnPointShowsTheConnectsServedAgainstThoseAskedAndTheReconnectP99() {
        Progress p = atLevel25Connected(Profile.SESSIONS);
        var own = ResultWritersTest.point(10, 30, 2.5);
        var fanout = new sockbench.client.stats.LatencySummary(600, 9.0, 3.0, 1.0, 8.0, 12.0, 41.0, 50.0, 52.0);
        org.HdrHistogram.Histogram reconnects = sockbench.client.stats.LatencySummary.newHistogram();
        reconnects.recordValue(3_000);
        var churn = sockbench.client.stats.ChurnRecord.of(5, 15, 14, 3.0, java.util.Map.of("timeout", 1), reconnects);
        p.point(25, sockbench.client.stats.PointResult.builder().targetRate(10).durationS(3).sent(30).rtt(own.rtt())
                .rttUncorrected(own.rtt()).state(own.state()).phase(own.phase()).fanout(fanout).churn(churn)
                .build(), Profile.SESSIONS.plan());
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        String line = lines[lines.length - 1];
        assertTrue(line.contains("churn 4.7 of 5 connects/s, reconnect p99 3.00 ms, 1 failed"), line);
    }

    @Test
    void aPointWithSlowReadersShowsHowFarBehindTheyWereAndHowManyWereCutOff() {
        Progress p = atLevel25Connected(Profile.QUICK);
        var own = ResultWritersTest.point(10, 30, 2.5);
        var behind = new sockbench.client.stats.LatencySummary(60, 900.0, 3.0, 1.0, 800.0, 1200.0, 1500.0, 1500.0, 1510.0);
        var slow = new sockbench.client.stats.SlowClientsRecord(3, 60, 90, 2, java.util.Map.of("EOF", 2), behind);
        p.point(25, sockbench.client.stats.PointResult.builder().targetRate(10).durationS(3).sent(30).rtt(own.rtt())
                .rttUncorrected(own.rtt()).state(own.state()).phase(own.phase()).slowClients(slow)
                .build(), Profile.QUICK.plan());
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        String line = lines[lines.length - 1];
        assertTrue(line.contains("slow readers 3, behind p99 1500.00 ms, 2 cut off"), line);
    }

    @Test
    void theEtaOfALegacySweepIsCheapToCompute() {
        Progress p = atLevel25Connected(Profile.LEGACY);
        long t0 = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            p.point(25, ResultWritersTest.point(1 + 40 * i, 30, 2.5), Profile.LEGACY.plan());
        }
        double msPerLine = (System.nanoTime() - t0) / 1e6 / 20;
        assertTrue(msPerLine < 50, "a progress line took " + msPerLine + " ms");
    }

    /** The ETA's seconds from the last progress line ("ETA ~m:ss"). */
    private static long etaSeconds(String out) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("ETA ~(\\d+):(\\d\\d)").matcher(out);
        long s = -1;
        while (m.find()) {
            s = Long.parseLong(m.group(1)) * 60 + Long.parseLong(m.group(2));
        }
        return s;
    }

    @Test
    void theEtaClimbsToEachLevelsCapNotToTheProfilesMaxRate() {
        // A server that kept up with 30 M received/s at 25 clients: with the profile's 100,000 msgs/s the
        // walk would stop at 2.5 M received/s; with a client ceiling of 40 M it climbs much further.
        var plan = Profile.STANDARD.plan();
        long[] eta = new long[2];
        double[] caps = {plan.maxRate(), 40_000_000.0};
        for (int k = 0; k < 2; k++) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            Progress p = new Progress(new PrintStream(out, true, StandardCharsets.UTF_8));
            double ceiling = caps[k];
            boolean flat = k == 0;
            p.sweepStarted(plan, 5, n -> flat ? ceiling : ceiling / n);
            p.levelConnected(25, 25, 0, 0.3);
            p.point(25, ResultWritersTest.point(1_200_000, 3_600_000, 2.0), plan);
            eta[k] = etaSeconds(out.toString(StandardCharsets.UTF_8));
        }
        assertTrue(eta[0] > 0 && eta[1] > eta[0], "capped at max_rate " + eta[0] + " s, at the ceiling " + eta[1] + " s");
    }
}
