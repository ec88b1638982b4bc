package sockbench.client.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import sockbench.client.plan.Profile;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.MessagesPerFrame;
import sockbench.client.stats.PointResult;
import sockbench.client.sweep.SweepSettings;

/**
 * A point's {@code messages_per_frame} in the result file: written with every member the schema
 * names, valid against results/schema.json, absent when the point received no data frame, and a
 * malformed one is refused by the schema.
 */
class MessagesPerFrameFieldTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static String resultWith(PointResult p) throws Exception {
        SweepSettings settings = SweepSettings.builder(Profile.SMOKE.plan())
                .connectTimeoutS(10).payloadBytes(64).clientCores(1).build();
        List<LevelResult> levels = List.of(new LevelResult(2, 2, 0, 0.1, List.of(p), null, null, "max_rate"));
        return ResultWritersTest.json(ResultWritersTest.result(settings, levels, null, List.of(), List.of()));
    }

    private static PointResult withFrames(MessagesPerFrame f) {
        PointResult p = ResultWritersTest.point(20, 60, 2.5);
        return PointResult.builder().targetRate(p.targetRate()).durationS(p.durationS()).sent(p.sent())
                .sentPerS(p.sentPerS()).received(p.received()).receivedPerS(p.receivedPerS())
                .expectedReceived(p.expectedReceived()).rtt(p.rtt()).rttUncorrected(p.rttUncorrected())
                .clientCpuPct(p.clientCpuPct()).state(p.state()).phase(p.phase()).messagesPerFrame(f).build();
    }

    private static JsonNode firstPoint(String text) throws Exception {
        return MAPPER.readTree(text).get("levels").get(0).get("points").get(0);
    }

    @Test
    void aPointWithFramesRecordsTheirDistributionAndIsValid() throws Exception {
        String text = resultWith(withFrames(new MessagesPerFrame(700, 1500, 1500 / 700.0, 2, 3, 10, 12,
                1.33, 2.14, 3.5)));
        assertTrue(ResultWritersTest.validate(text).isEmpty(), ResultWritersTest.validate(text) + "\n" + text);
        JsonNode f = firstPoint(text).get("messages_per_frame");
        assertEquals(700, f.get("frames").asLong());
        assertEquals(1500, f.get("messages").asLong());
        assertEquals(2.143, f.get("mean").asDouble(), "messages / frames, 3 decimals");
        assertEquals(2, f.get("p50").asLong());
        assertEquals(3, f.get("p90").asLong());
        assertEquals(10, f.get("p99").asLong());
        assertEquals(12, f.get("max").asLong());
        assertTrue(f.get("p50").isIntegralNumber());
        JsonNode pc = f.get("per_connection");
        assertEquals(1.33, pc.get("min").asDouble());
        assertEquals(2.14, pc.get("p50").asDouble());
        assertEquals(3.5, pc.get("max").asDouble());
        assertEquals(List.of("frames", "messages", "mean", "p50", "p90", "p99", "max", "per_connection"),
                iterable(f), "the agreed members, in order");
    }

    @Test
    void aPointWithoutFramesHasNoField() throws Exception {
        String text = resultWith(withFrames(null));
        assertTrue(ResultWritersTest.validate(text).isEmpty());
        assertFalse(firstPoint(text).has("messages_per_frame"));
    }

    @Test
    void theSchemaRefusesAMalformedField() throws Exception {
        String text = resultWith(withFrames(new MessagesPerFrame(3, 3, 1, 1, 1, 1, 1, 1, 1, 1)));
        String noFrames = text.replace("\"frames\" : 3", "\"frames\" : 0");
        String noPerConnection = text.replace("\"per_connection\"", "\"per_link\"");
        String fractionalPercentile = text.replace("\"p90\" : 1,", "\"p90\" : 1.5,");
        for (String broken : List.of(noFrames, noPerConnection, fractionalPercentile)) {
            assertFalse(broken.equals(text), "the replacement must hit");
            assertFalse(ResultWritersTest.validate(broken).isEmpty(), broken);
        }
    }

    private static List<String> iterable(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
