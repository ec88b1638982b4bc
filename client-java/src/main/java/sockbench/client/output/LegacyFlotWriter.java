package sockbench.client.output;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import sockbench.client.sweep.RunResult;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;

/**
 * The original flot chart data: {@code [[label, [[x, y], ...]], ...]}, one series per level,
 * labelled with its concurrency, x = target rate (messages/s sent), y = the achieved
 * sent/s ({@link Series#SENT}) or received/s ({@link Series#RECEIVED}).
 */
public final class LegacyFlotWriter implements ResultWriter {

    /** Which rate the y values are. */
    public enum Series { SENT, RECEIVED }

    private final Series series;

    public LegacyFlotWriter(Series series) {
        this.series = series;
    }

    @Override
    public void write(RunResult result, Writer out) throws IOException {
        try (JsonGenerator g = JsonResultWriter.FACTORY.createGenerator(out)) {
            g.writeStartArray();
            for (LevelResult level : result.levels()) {
                g.writeStartArray();
                g.writeString(Integer.toString(level.concurrency()));
                g.writeStartArray();
                for (PointResult p : level.points()) {
                    g.writeStartArray();
                    g.writeNumber(JsonFields.round(p.targetRate()));
                    g.writeNumber(JsonFields.round(series == Series.SENT ? p.sentPerS() : p.receivedPerS()));
                    g.writeEndArray();
                }
                g.writeEndArray();
                g.writeEndArray();
            }
            g.writeEndArray();
        }
        out.write('\n');
    }
}
