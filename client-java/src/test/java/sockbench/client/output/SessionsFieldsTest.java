package sockbench.client.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.ValidationMessage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;
import sockbench.client.stats.CompletionSummary;
import sockbench.client.stats.ConnectRecord;
import sockbench.client.stats.ChurnRecord;
import sockbench.client.stats.IdleRecord;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.PointState;
import sockbench.client.sweep.SweepSettings;

/**
 * The sessions fields of a result under their agreed names, valid against results/schema.json,
 * nulls included (an unpaced level, unreadable processes, no ok point); and absent from a profile
 * that neither paces, holds nor times all copies.
 */
class SessionsFieldsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void connectIdleFanoutAndCompletionAreWrittenUnderTheirNamesWithNullsWhereUnknown() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SESSIONS.plan().withLevels(List.of(1000)))
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        PointResult saturated = PointResult.builder().targetRate(8).durationS(2).sent(16).sentPerS(8)
                .received(16_000).receivedPerS(8_000).expectedReceived(16_000)
                .rtt(ResultWritersTest.point(8, 16, 3).rtt()).rttUncorrected(ResultWritersTest.point(8, 16, 3).rtt())
                .state(PointState.SATURATED).phase(sockbench.client.stats.Phase.RAMP)
                .fanout(new LatencySummary(16_000, 90.0, 40.0, 1.0, 80.0, 150.0, 250.0, 260.0, 270.0))
                .completion(new CompletionSummary(0, 16, null, null, null, null)).build();
        LevelResult level = new LevelResult(1000, 998, 2, 1.2, List.of(saturated), null, null, "saturated", 1.0, null)
                .withSessions(new ConnectRecord(null, 831.7, Map.of("Too many open files", 2)),
                        new IdleRecord(30.01, 0, 1200, null, null, 52_000_000L, 310_000_000L, 250_000_000L, 998),
                        true, 3);
        String text = ResultWritersTest.json(ResultWritersTest.result(settings, List.of(level), null, List.of(), List.of()));
        Set<ValidationMessage> errors = ResultWritersTest.validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);

        JsonNode root = MAPPER.readTree(text);
        JsonNode params = root.get("parameters");
        assertEquals(true, params.get("all_copies").asBoolean());
        assertEquals("all_copies_p99", params.get("verdict").asText());
        assertEquals(30.0, params.get("idle_hold_s").asDouble());
        assertEquals(2000.0, params.get("connect_rate_per_s").asDouble());
        JsonNode l = root.get("levels").get(0);
        assertTrue(l.get("connect").get("rate_per_s").isNull(), "unpaced");
        assertEquals(2, l.get("connect").get("failures").get("Too many open files").asInt());
        JsonNode idle = l.get("idle");
        assertEquals(1200, idle.get("heartbeats").asLong());
        assertTrue(idle.get("server_cpu_pct").isNull());
        assertTrue(idle.get("server_bytes_per_session").isNull(), "no server RSS: no per-session figure");
        assertEquals((310_000_000 - 250_000_000) / 998.0, idle.get("client_bytes_per_session").asDouble(), 0.001);
        assertTrue(l.get("fanout_saturation").isNull(), "no ok point");
        assertEquals(3, l.get("agents").asInt());
        JsonNode p = l.get("points").get(0);
        assertEquals(250.0, p.get("fanout_ms").get("p99").asDouble());
        assertEquals(16, p.get("completion_ms").get("incomplete").asLong());
        assertTrue(p.get("completion_ms").get("p50").isNull());
    }

    @Test
    void aChurnRunWritesItsPercentEachPointsStormAndTheHoldsLostReasons() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SESSIONS.plan().toBuilder().levels(List.of(1000))
                        .churnPct(5).build())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        org.HdrHistogram.Histogram reconnectMicros = LatencySummary.newHistogram();
        reconnectMicros.recordValue(4_000);
        reconnectMicros.recordValue(6_000);
        ChurnRecord churn = ChurnRecord.of(50, 100, 98, 2.0, Map.of("Connection refused", 2), reconnectMicros);
        PointResult p = PointResult.builder().targetRate(1).durationS(2).sent(2).sentPerS(1)
                .received(1900).receivedPerS(950).expectedReceived(1900)
                .rtt(ResultWritersTest.point(1, 2, 3).rtt()).rttUncorrected(ResultWritersTest.point(1, 2, 3).rtt())
                .state(PointState.OK).phase(sockbench.client.stats.Phase.RAMP)
                .fanout(new LatencySummary(1900, 9.0, 4.0, 1.0, 8.0, 15.0, 25.0, 26.0, 27.0))
                .completion(new CompletionSummary(2, 0, 20.0, 25.0, 27.0, 27.0)).churn(churn).build();
        IdleRecord idle = new IdleRecord(30.0, 3, 1000, 1.0, 60_000_000L, 50_000_000L, 310_000_000L, 250_000_000L,
                1000, Map.of("EOF", 2, "SockJS close 3000 Go away!", 1));
        LevelResult level = new LevelResult(1000, 1000, 0, 0.6, List.of(p), null, null, "max_rate", 1.0, null)
                .withSessions(new ConnectRecord(2000.0, 1900.0, Map.of()), idle, true, null);
        String text = ResultWritersTest.json(ResultWritersTest.result(settings, List.of(level), null, List.of(), List.of()));
        Set<ValidationMessage> errors = ResultWritersTest.validate(text);
        assertTrue(errors.isEmpty(), errors + "\n" + text);

        JsonNode root = MAPPER.readTree(text);
        assertEquals(5.0, root.get("parameters").get("churn_pct").asDouble());
        JsonNode l = root.get("levels").get(0);
        assertEquals(2, l.get("idle").get("lost_reasons").get("EOF").asInt());
        assertEquals(1, l.get("idle").get("lost_reasons").get("SockJS close 3000 Go away!").asInt());
        JsonNode c = l.get("points").get(0).get("churn");
        assertEquals(50, c.get("pool").asInt());
        assertEquals(100, c.get("closes").asLong());
        assertEquals(98, c.get("reconnects").asLong());
        assertEquals(49.0, c.get("connects_per_s").asDouble());
        assertEquals(2, c.get("failures").get("Connection refused").asInt());
        assertEquals(2, c.get("reconnect_ms").get("count").asLong());
        assertEquals(6.0, c.get("reconnect_ms").get("max").asDouble(), 0.01);
        assertEquals(List.of("count", "p50", "p90", "p99", "max"),
                iterableNames(c.get("reconnect_ms")), "the reconnect time's fields, no more");
        // 2 of 100 closes failed (> 1 %): the server did not serve the churn, and that is said
        assertTrue(churn.warning("level 1000, rate 1.0/s (ramp)").contains("churn asked 50 connects/s"),
                churn.warning("level 1000, rate 1.0/s (ramp)"));
        assertTrue(churn.warning("x").contains("Connection refused (2)"), churn.warning("x"));
    }

    @Test
    void churnTheServerServedInFullIsNotWarnedAbout() {
        ChurnRecord served = ChurnRecord.of(50, 100, 100, 2.0, Map.of(), LatencySummary.newHistogram());
        assertEquals(null, served.warning("level 1000, rate 1.0/s (ramp)"));
        ChurnRecord slow = ChurnRecord.of(50, 100, 80, 2.0, Map.of(), LatencySummary.newHistogram());
        assertTrue(slow.warning("level 1000").contains("it served 40.0"), slow.warning("level 1000"));
    }

    private static List<String> iterableNames(JsonNode o) {
        List<String> names = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aProfileWithoutSessionsFieldsWritesNoneOfThemButItsParameters() throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        List<PointResult> points = List.of(ResultWritersTest.point(20, 60, 2.5));
        LevelResult level = new LevelResult(2, 2, 0, 0.1, points, null, null, "max_rate", 20.0, null);
        JsonNode root = MAPPER.readTree(ResultWritersTest.json(
                ResultWritersTest.result(settings, List.of(level), null, List.of(), List.of())));
        assertEquals("own_mean", root.get("parameters").get("verdict").asText());
        assertFalse(root.get("parameters").get("all_copies").asBoolean());
        assertFalse(root.get("parameters").has("churn_pct"), "no churn: no churn_pct, as before it existed");
        JsonNode l = root.get("levels").get(0);
        for (String absent : List.of("connect", "idle", "fanout_saturation", "agents")) {
            assertFalse(l.has(absent), absent);
        }
        assertFalse(l.get("points").get(0).has("fanout_ms"));
        assertFalse(l.get("points").get(0).has("completion_ms"));
        assertFalse(l.get("points").get(0).has("churn"));
    }
}
