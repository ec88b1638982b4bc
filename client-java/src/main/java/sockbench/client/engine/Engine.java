package sockbench.client.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The connection engine: a fixed number of I/O threads ({@link IoLoop}), each a selector driving
 * its share of the connections, however many there are. Thread count does not grow with N, so
 * 5,000 connections cost 5,000 sockets and small buffers, not 10,000 thread stacks.
 *
 * <p>Used by one controller thread: open a level's connections, run points, close them.
 */
public final class Engine implements AutoCloseable {

    private final List<IoLoop> loops = new ArrayList<>();
    private final long originNs = System.nanoTime();

    /** Default pause after a busy I/O round: 100 µs (see {@link IoLoop}). */
    public static final long DEFAULT_READ_COALESCE_NS = 100_000;
    /**
     * How long a call waits for each I/O thread to run a task before it gives up with an error (a
     * thread that far behind is stuck); the fleet's coordinator gives an agent at least this per
     * such wait before it calls the agent lost.
     */
    public static final long IO_THREAD_ANSWER_NS = 10_000_000_000L;

    /** Settings for an engine on {@code target}, each set by name; {@link Builder#start} opens the I/O threads. */
    public static Builder builder(Target target) {
        return new Builder(target);
    }

    private Engine(Builder b) throws IOException {
        if (b.ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be >= 1");
        }
        if (b.connectTimeoutNs <= 0 || b.connectConcurrency < 1) {
            throw new IllegalArgumentException("connect timeout must be > 0 and connect concurrency >= 1");
        }
        int perLoop = Math.max(1, b.connectConcurrency / b.ioThreads);
        for (int i = 0; i < b.ioThreads; i++) {
            loops.add(new IoLoop(i, b.ioThreads, b.target, originNs, b.connectTimeoutNs, perLoop, b.readCoalesceNs,
                    b.validate, b.sourceAddresses, b.churnPool, b.transports, b.slowReaders));
        }
        loops.forEach(IoLoop::start);
    }

    /**
     * What an engine needs: the I/O threads, connect timeout and connect concurrency are required
     * (left unset they fail {@link #start}); read coalescing, validation and source addresses have
     * defaults.
     */
    public static final class Builder {
        private final Target target;
        private int ioThreads;
        private long connectTimeoutNs;
        private int connectConcurrency;
        private long readCoalesceNs = DEFAULT_READ_COALESCE_NS;
        private boolean validate;
        private List<InetAddress> sourceAddresses = List.of();
        private ChurnPool churnPool = ChurnPool.NONE;
        private TransportMix transports = TransportMix.WEBSOCKET_ONLY;
        private SlowReaders slowReaders = SlowReaders.NONE;

        private Builder(Target target) {
            this.target = target;
        }

        /** Number of I/O threads, ≥ 1. */
        public Builder ioThreads(int n) {
            this.ioThreads = n;
            return this;
        }

        /** Per-connection limit for TCP connect + handshake (+ SockJS "o"), nanoseconds, &gt; 0. */
        public Builder connectTimeoutNs(long ns) {
            this.connectTimeoutNs = ns;
            return this;
        }

        /**
         * Connections being opened at once across all threads, ≥ 1 (protects the server's listen
         * backlog from a SYN flood).
         */
        public Builder connectConcurrency(int n) {
            this.connectConcurrency = n;
            return this;
        }

        /**
         * After a round that found data, wait this long before the next epoll/read round so reads
         * carry many frames, nanoseconds, 0..10,000,000 (0 = never wait). Default 100 µs.
         */
        public Builder readCoalesceNs(long ns) {
            this.readCoalesceNs = ns;
            return this;
        }

        /**
         * Check every received websocket message fully: strict UTF-8 and (SockJS) the whole frame
         * grammar with escapes; a protocol error closes the connection. A debug mode: it costs a
         * String per frame, which the normal receive path avoids. Default off.
         */
        public Builder validate(boolean on) {
            this.validate = on;
            return this;
        }

        /**
         * Local addresses to bind connections to, client i to address i mod size (one address has
         * only ~28,000 ephemeral ports towards one server port); empty (the default) = let the kernel
         * choose, as a plain connect does.
         */
        public Builder sourceAddresses(List<InetAddress> addresses) {
            this.sourceAddresses = List.copyOf(addresses);
            return this;
        }

        /**
         * The sessions that cycle (close, reconnect) once a second from a level's first point until it
         * closes, and that never send nor count ({@link ChurnPool}); default {@link ChurnPool#NONE}.
         */
        public Builder churnPool(ChurnPool pool) {
            this.churnPool = pool;
            return this;
        }

        /**
         * Which SockJS transport each client uses ({@link TransportMix}); default every session on
         * the websocket. HTTP transports need the SockJS framing ({@link Transport#SOCKJS}).
         */
        public Builder transports(TransportMix mix) {
            if (mix.anyHttp() && target.transport() != Transport.SOCKJS) {
                throw new IllegalArgumentException("HTTP transports (" + mix.spec() + ") need the SockJS endpoint, not --transport "
                        + target.transport().jsonName());
            }
            this.transports = mix;
            return this;
        }

        /**
         * The sessions whose reads are held to a rate, which never send and whose copies are
         * counted apart ({@link SlowReaders}); default {@link SlowReaders#NONE}.
         */
        public Builder slowReaders(SlowReaders slow) {
            this.slowReaders = slow;
            return this;
        }

        /** Starts the I/O threads. */
        public Engine start() throws IOException {
            return new Engine(this);
        }
    }

    public int ioThreads() {
        return loops.size();
    }

    /**
     * Opens {@code n} connections (client ids 0..n-1, client i on thread i mod threads) and waits
     * until each has opened, failed or timed out.
     *
     * @param overallTimeoutNs give up waiting after this long (connections still opening then count as failed)
     */
    public ConnectProgress open(int n, long overallTimeoutNs) throws InterruptedException {
        List<Integer> ids = new ArrayList<>(n);
        for (int id = 0; id < n; id++) {
            ids.add(id);
        }
        return open(ids, overallTimeoutNs);
    }

    /**
     * Opens connections with the given client ids (ascending; an agent of a fleet holds every A-th
     * id of the level, and the ids must be unique across the fleet because a receiver tells its own
     * copies by them). The k-th id goes to thread k mod threads.
     */
    public ConnectProgress open(List<Integer> clientIds, long overallTimeoutNs) throws InterruptedException {
        return open(clientIds, overallTimeoutNs, 0);
    }

    /**
     * As {@link #open(List, long)}, starting at most {@code connectRatePerS} new connections per
     * second in all (0 = unpaced): each I/O thread starts its share one per T / rate seconds, the
     * threads offset by 1 / rate, so the server sees an even stream of handshakes instead of a
     * burst of thousands (its accept queue and the SYN backlog stay short).
     */
    public ConnectProgress open(List<Integer> clientIds, long overallTimeoutNs, double connectRatePerS)
            throws InterruptedException {
        ConnectProgress progress = new ConnectProgress(clientIds.size());
        long now = System.nanoTime();
        long perConnectNs = connectRatePerS > 0 ? (long) Math.max(1, 1e9 / connectRatePerS) : 0;
        List<List<Integer>> shares = new ArrayList<>();
        for (int i = 0; i < loops.size(); i++) {
            shares.add(new ArrayList<>());
        }
        for (int k = 0; k < clientIds.size(); k++) {
            shares.get(k % loops.size()).add(clientIds.get(k));
        }
        for (int i = 0; i < loops.size(); i++) {
            IoLoop loop = loops.get(i);
            List<Integer> share = shares.get(i);
            long firstAt = now + i * perConnectNs;
            loop.submit(() -> loop.openConnections(share, progress, perConnectNs * loops.size(), firstAt));
        }
        long deadline = System.nanoTime() + overallTimeoutNs;
        while (!progress.done() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (!progress.done()) {
            // Give up on the stragglers (and on those not started yet) so nothing opens mid-point.
            runOnAll(loop -> {
                loop.abandonOpening("level did not finish opening in time");
                return null;
            });
        }
        return progress;
    }

    /**
     * Starts a point over the connections open now (the churn pool's excepted: they never send):
     * they get slots 0..open-1 in client-id order (so phases interleave across threads), and every
     * thread follows the schedule from now on. The first point of a level with a churn pool also
     * starts its churn.
     *
     * @param scheduleForClients builds the schedule given the number of open connections
     * @return the schedule started
     */
    public PointSchedule start(java.util.function.IntFunction<PointSchedule> scheduleForClients) {
        return start(scheduleForClients, java.util.function.IntUnaryOperator.identity());
    }

    /**
     * As {@link #start(java.util.function.IntFunction)}, with the schedule's slot of each open
     * connection given by {@code slotOfRank} (rank = position among this engine's open connections
     * in client-id order): an agent of a fleet holds only some of the schedule's slots.
     *
     * @param scheduleForClients builds the schedule given the number of connections open here
     */
    public PointSchedule start(java.util.function.IntFunction<PointSchedule> scheduleForClients,
                               java.util.function.IntUnaryOperator slotOfRank) {
        List<List<Integer>> idsPerLoop = runOnAll(IoLoop::openClientIds);
        List<Integer> all = new ArrayList<>();
        idsPerLoop.forEach(all::addAll);
        java.util.Collections.sort(all);
        PointSchedule schedule = scheduleForClients.apply(Math.max(1, all.size()));
        for (int i = 0; i < loops.size(); i++) {
            IoLoop loop = loops.get(i);
            List<Integer> ids = idsPerLoop.get(i);
            int[] slots = new int[ids.size()];
            for (int k = 0; k < slots.length; k++) {
                slots[k] = slotOfRank.applyAsInt(java.util.Collections.binarySearch(all, ids.get(k)));
            }
            loop.submit(() -> loop.startSchedule(schedule, ids, slots));
        }
        runOnAll(loop -> null); // wait until every thread has it
        return schedule;
    }

    /** Counts so far (without histograms), merged over threads. */
    public PointCounters poll() {
        PointCounters total = new PointCounters();
        for (PointCounters c : runOnAll(loop -> loop.snapshot(false))) {
            total.add(c);
        }
        return total;
    }

    /** Ends the point and returns everything it counted, histograms included. */
    public PointCounters finish() {
        PointCounters total = new PointCounters();
        for (PointCounters c : runOnAll(IoLoop::finishSchedule)) {
            total.add(c);
        }
        return total;
    }

    /** Server heartbeats (SockJS h frames, websocket pings) received by every I/O thread since the engine started. */
    public long heartbeats() {
        long n = 0;
        for (Long h : runOnAll(IoLoop::heartbeats)) {
            n += h;
        }
        return n;
    }

    /**
     * Open sessions that closed without the client asking since the engine started, by
     * {@link LossReason} key, every I/O thread together (a running count: the idle hold takes the difference).
     */
    public java.util.Map<String, Integer> lostReasons() {
        java.util.Map<String, Integer> total = new java.util.TreeMap<>();
        for (java.util.Map<String, Integer> m : runOnAll(IoLoop::lostReasons)) {
            m.forEach((k, v) -> total.merge(k, v, Integer::sum));
        }
        return total;
    }

    /** Connections of the level still open. */
    public int openConnections() {
        int n = 0;
        for (Integer c : runOnAll(IoLoop::openCount)) {
            n += c;
        }
        return n;
    }

    /**
     * As {@link #steadyOpenConnections()} per transport, by name, in the mix's order, when the
     * sessions use more than one transport; empty otherwise.
     */
    public java.util.Map<String, Integer> steadyOpenByTransport() {
        java.util.Map<String, Integer> total = new java.util.LinkedHashMap<>();
        for (java.util.Map<String, Integer> m : runOnAll(IoLoop::steadyOpenByTransport)) {
            m.forEach((k, v) -> total.merge(k, v, Integer::sum));
        }
        return total;
    }

    /**
     * Connections of the level still open that take part in points: all of them without churn or
     * slow readers, else those that are neither in the churn pool nor slow readers.
     */
    public int steadyOpenConnections() {
        int n = 0;
        for (Integer c : runOnAll(IoLoop::steadyOpenCount)) {
            n += c;
        }
        return n;
    }

    /**
     * Closes the level's connections (the churn stops first): a polite close frame, then after
     * {@code graceMs} a hard close.
     */
    public void closeAll(long graceMs) throws InterruptedException {
        runOnAll(loop -> {
            loop.closeAll(false);
            return null;
        });
        long deadline = System.nanoTime() + graceMs * 1_000_000;
        while (System.nanoTime() < deadline && openConnections() > 0) {
            Thread.sleep(10);
        }
        runOnAll(loop -> {
            loop.closeAll(true);
            return null;
        });
    }

    /** The engine's clock origin (payload times are relative to it), nanoTime. */
    public long originNs() {
        return originNs;
    }

    private <T> List<T> runOnAll(Function<IoLoop, T> action) {
        List<CompletableFuture<T>> futures = new ArrayList<>();
        for (IoLoop loop : loops) {
            CompletableFuture<T> f = new CompletableFuture<>();
            loop.submit(() -> {
                try {
                    f.complete(action.apply(loop));
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            });
            futures.add(f);
        }
        List<T> out = new ArrayList<>();
        for (CompletableFuture<T> f : futures) {
            try {
                out.add(f.get(IO_THREAD_ANSWER_NS, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for an I/O thread", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("I/O thread did not answer: " + e, e);
            }
        }
        return out;
    }

    @Override
    public void close() {
        loops.forEach(IoLoop::shutdown);
    }
}
