package sockbench.client.output;

import static sockbench.client.output.JsonFields.counts;
import static sockbench.client.output.JsonFields.latency;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import sockbench.client.engine.SlowReaders;
import sockbench.client.stats.SlowClientsRecord;

/**
 * The result's slow-reader fields ({@code --slow-clients}, results/README.md "Slow readers"):
 * {@code parameters.slow_clients} and each point's {@code slow_clients}. Both are written only by
 * a run with slow readers, so every other run's file is exactly what it was.
 */
final class SlowClientsWriter {

    private SlowClientsWriter() {
    }

    /** {@code parameters.slow_clients}: {@code {pct, kib_per_s}}, when some sessions read slowly. */
    static void parameters(JsonGenerator g, SlowReaders slow) throws IOException {
        if (!slow.active()) {
            return;
        }
        g.writeObjectFieldStart("slow_clients");
        g.writeNumberField("pct", slow.pct());
        g.writeNumberField("kib_per_s", slow.kibPerS());
        g.writeEndObject();
    }

    /** A point's {@code slow_clients}, when it has one. */
    static void point(JsonGenerator g, SlowClientsRecord s) throws IOException {
        if (s == null) {
            return;
        }
        g.writeObjectFieldStart("slow_clients");
        g.writeNumberField("sessions", s.sessions());
        g.writeNumberField("received", s.received());
        g.writeNumberField("expected_received", s.expectedReceived());
        g.writeNumberField("lost_sessions", s.lostSessions());
        counts(g, "cut_off_reasons", s.cutOffReasons());
        latency(g, "fanout_ms", s.fanoutMs());
        g.writeEndObject();
    }
}
