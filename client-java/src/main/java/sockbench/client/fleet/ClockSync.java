package sockbench.client.fleet;

/**
 * Maps this process's {@code System.nanoTime()} to the bus's clock (Redis TIME, µs) from a few
 * round trips: the sample with the shortest round trip wins, and the offset is taken at its
 * midpoint, so the error is at most half that round trip (plus TIME's 1 µs resolution).
 *
 * @param offsetMicros Redis time minus this process's nanoTime/1000, microseconds
 * @param rttMicros    the shortest round trip seen, microseconds (twice the error bound)
 */
public record ClockSync(long offsetMicros, long rttMicros) {

    /** Round trips per estimate. */
    static final int SAMPLES = 7;

    public static ClockSync measure(RedisBus bus) {
        long bestRtt = Long.MAX_VALUE;
        long bestOffset = 0;
        for (int i = 0; i < SAMPLES; i++) {
            long t0 = System.nanoTime();
            long redis = bus.timeMicros();
            long t1 = System.nanoTime();
            long rtt = (t1 - t0) / 1000;
            if (rtt < bestRtt) {
                bestRtt = rtt;
                bestOffset = redis - (t0 + (t1 - t0) / 2) / 1000;
            }
        }
        return new ClockSync(bestOffset, bestRtt);
    }

    /** A local nanoTime as bus time, microseconds. */
    public long toBusMicros(long nanoTime) {
        return nanoTime / 1000 + offsetMicros;
    }

    /** A bus time (µs) as local nanoTime. */
    public long toLocalNanos(long busMicros) {
        return (busMicros - offsetMicros) * 1000;
    }
}
