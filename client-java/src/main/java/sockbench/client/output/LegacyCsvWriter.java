package sockbench.client.output;

import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import sockbench.client.sweep.RunResult;
import sockbench.client.stats.LatencySummary;
import sockbench.client.stats.LevelResult;
import sockbench.client.stats.PointResult;

/**
 * The original client's CSV: one row per point, {@code concurrency,rate,n,min,mean,max,stdev},
 * no header. {@code rate} is the target rate (messages/s sent), {@code n} the number of RTT
 * samples, latencies in milliseconds. The original measured from the actual send time, so these
 * columns use the <em>uncorrected</em> RTT to stay comparable with old results (the JSON result
 * has both). Points without samples are written with empty latency fields.
 */
public final class LegacyCsvWriter implements ResultWriter {

    @Override
    public void write(RunResult result, Writer out) throws IOException {
        for (LevelResult level : result.levels()) {
            for (PointResult p : level.points()) {
                LatencySummary l = p.rttUncorrected();
                out.write(String.format(Locale.ROOT, "%d,%s,%d,%s,%s,%s,%s%n", level.concurrency(),
                        num(p.targetRate()), l.count(), num(l.min()), num(l.mean()), num(l.max()), num(l.stddev())));
            }
        }
    }

    private static String num(Double v) {
        if (v == null) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString(v.longValue());
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
