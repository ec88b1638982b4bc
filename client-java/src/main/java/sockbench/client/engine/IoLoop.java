package sockbench.client.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One I/O thread: a selector driving a share of the connections. Each turn it runs the
 * controller's tasks, starts the connects that are due ({@link SessionOpener}), ticks the churn
 * ({@link ChurnCycle}), re-arms the slow readers whose budget refilled ({@link ReadThrottle}),
 * sends what is due ({@link SendCursor}), reads every ready socket with one large buffer (many
 * frames per read syscall; decoding and accounting are the {@link Connection}'s and
 * {@link ReceiveAccounting}'s), and writes queued frames with gathering writes.
 *
 * <p>Everything a loop owns is touched only by its thread; the controller talks to it by
 * {@link #submit submitting tasks}.
 */
final class IoLoop implements Runnable, ConnectionEvents, ChurnCycle.Host {

    /**
     * Read buffer size: large, so one read drains many frames. Measured with the firehose (client
     * README): 64 and 32 KiB reads keep the scanned bytes closer in cache but cost more in syscalls
     * and window updates than they save (100 × 100 msgs/frame: 17.7 M and 15.1 M msgs/s against
     * 18.4 M with 256 KiB).
     */
    static final int READ_BUFFER_BYTES = 256 * 1024;
    /** Max bytes read from one connection per wake-up, so one busy connection cannot starve the others. */
    private static final int MAX_BYTES_PER_KEY = 1024 * 1024;
    private static final int MAX_READS_PER_KEY = Math.max(1, MAX_BYTES_PER_KEY / READ_BUFFER_BYTES);
    /** How long the loop parks when the next due send is less than a millisecond away (epoll waits in ms). */
    private static final long SHORT_PARK_NS = 50_000;
    private static final long TIMEOUT_SCAN_NS = 50_000_000;
    private static final int GATHER = 32;

    private final int index;
    /** Pause after a busy round so the next reads carry more frames, nanoseconds (0 = off). */
    private final long readCoalesceNs;
    private final Target target;
    private final boolean validate;
    private final Selector selector;
    /** The level's connects: queue, pace, in-flight limit, deadlines. */
    private final SessionOpener opener;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private final ByteBuffer[] gather = new ByteBuffer[GATHER];
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ArrayList<Connection> flushList = new ArrayList<>();
    /**
     * The accounting of the mix's first transport: the churn's counters and the window test
     * (every transport's accounting follows the same schedule).
     */
    private final ReceiveAccounting receive;
    /** One accounting per transport of the mix, by {@link SessionTransport#ordinal()}; null for the others. */
    private final ReceiveAccounting[] receiveByTransport = new ReceiveAccounting[SessionTransport.values().length];
    /** Which transport each client id uses. */
    private final TransportMix mix;
    private final SendCursor sender;
    /** Which sessions churn ({@link ChurnPool#NONE}: none), and this loop's cycling of them. */
    private final ChurnPool churnPool;
    private final ChurnCycle churn;
    /** Which sessions read slowly ({@link SlowReaders#NONE}: none), their accounting and their paused sockets. */
    private final SlowReaders slowReaders;
    private final ReceiveAccounting slowAccounting;
    private final ReadThrottle throttle = new ReadThrottle();
    /** When the slow readers probe their server next ({@link Connection#probe}), nanoTime. */
    private long nextProbeNs;
    /** One probe a second: a cut-off is counted within about a second, at 2 bytes a second per slow reader. */
    private static final long PROBE_INTERVAL_NS = 1_000_000_000L;
    /** The engine's I/O threads, which offset their churn cycles against each other. */
    private final int loopCount;
    private volatile boolean running = true;
    private final Thread thread;

    /** This loop's connections of the current level, in ascending client id. */
    private final LevelSessions sessions = new LevelSessions();
    private ConnectProgress progress;
    private long nextTimeoutScanNs;
    /** Heartbeats received and sessions lost since the loop started (the idle hold reads the difference). */
    private final SessionHealth health = new SessionHealth();

    /**
     * @param validate check every received frame fully (UTF-8, SockJS grammar); a debug mode, slow
     * @param loopCount the engine's I/O threads (this one's churn cycles are offset against theirs)
     * @param churnPool the sessions that churn during points ({@link ChurnPool#NONE}: none)
     * @param mix which transport each client id uses
     * @param slowReaders the sessions whose reads are held to a rate ({@link SlowReaders#NONE}: none)
     */
    IoLoop(int index, int loopCount, Target target, long originNs, long connectTimeoutNs, int maxInFlight,
           long readCoalesceNs, boolean validate, List<java.net.InetAddress> sourceAddresses, ChurnPool churnPool,
           TransportMix mix, SlowReaders slowReaders)
            throws IOException {
        this.slowReaders = slowReaders;
        // The slow readers' copies are counted apart and every one of them is timed (their lag).
        this.slowAccounting = slowReaders.active() ? new ReceiveAccounting(originNs, true) : null;
        this.index = index;
        this.loopCount = loopCount;
        this.churnPool = churnPool;
        this.readCoalesceNs = readCoalesceNs;
        this.target = target;
        this.validate = validate;
        this.mix = mix;
        for (SessionTransport t : mix.transports()) {
            receiveByTransport[t.ordinal()] = new ReceiveAccounting(originNs);
        }
        this.receive = receiveByTransport[mix.transports().get(0).ordinal()];
        this.sender = new SendCursor(originNs);
        this.churn = new ChurnCycle(this, receive);
        this.selector = Selector.open();
        this.opener = new SessionOpener(selector, target, connectTimeoutNs, maxInFlight, sourceAddresses);
        this.thread = new Thread(this, "sockbench-io-" + index);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Runs {@code task} on this loop's thread. */
    void submit(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    void shutdown() {
        running = false;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- control (called on the loop thread via tasks) ----------------------------------

    void openConnections(List<Integer> clientIds, ConnectProgress p) {
        openConnections(clientIds, p, 0, 0);
    }

    /**
     * Queues the level's connections; with {@code intervalNs} &gt; 0 they start one per interval
     * from {@code firstAtNs} on (the engine staggers the loops so the level's connects are even).
     */
    void openConnections(List<Integer> clientIds, ConnectProgress p, long intervalNs, long firstAtNs) {
        churn.stop();
        throttle.clear();
        if (slowAccounting != null) {
            slowAccounting.newLevel();
        }
        opener.reset(intervalNs, firstAtNs);
        progress = p;
        sessions.clear();
        long now = System.nanoTime();
        for (int id : clientIds) {
            SessionTransport t = mix.transportOf(id);
            boolean slow = slowReaders.contains(id);
            Connection c = Connection.create(this, target.transport(), t, id,
                    slow ? slowAccounting : receiveByTransport[t.ordinal()], validate);
            c.churnPool = churnPool.contains(id);
            c.slowReader = slow;
            c.readBucket = slow ? slowReaders.newBucket(now) : null;
            sessions.add(c);
            opener.queue(c);
        }
    }

    /** Client ids of this loop's open connections that take part in points (churn pool excluded), ascending. */
    List<Integer> openClientIds() {
        return sessions.openClientIds();
    }

    /** Starts following {@code s} with the connections {@code ids} in slots {@code slots}. */
    void startSchedule(PointSchedule s, List<Integer> ids, int[] slots) {
        for (ReceiveAccounting r : receiveByTransport) {
            if (r != null) {
                r.start(s);
            }
        }
        if (slowAccounting != null) {
            slowAccounting.start(s);
            reopenCutOffSlowReaders();
            slowAccounting.live().add(PointCounters.Count.SESSIONS_AT_START, sessions.slowOpenCount());
        }
        sender.start(s, sessions.inOrder(), ids, slots);
        if (churnPool.active() && !churn.running()) {
            // The churn starts with the level's first point and runs until the level closes.
            churn.start(sessions.inOrder(), System.nanoTime(), index, loopCount);
        }
    }

    /**
     * Every point starts with the level's full share of slow readers: one the server cut off during
     * an earlier point is opened again now, as its warm-up starts, with a full bucket. Without this a
     * level's later points (connections are reused after an ok point) would have none left, and
     * would read as what slow readers cost when there were none.
     */
    private void reopenCutOffSlowReaders() {
        long now = System.nanoTime();
        for (Connection c : List.copyOf(sessions.inOrder())) {
            if (c.slowReader && c.state() == Connection.State.CLOSED && !c.closingByUs) {
                Connection fresh = Connection.create(this, target.transport(), c.transport, c.clientId, slowAccounting,
                        validate);
                fresh.slowReader = true;
                fresh.slowReopen = true;
                fresh.readBucket = slowReaders.newBucket(now);
                sessions.replace(fresh);
                opener.startNow(fresh, now);
            }
        }
    }

    PointCounters snapshot(boolean withHistograms) {
        return merged(false, withHistograms);
    }

    /** Ends the point: no more sends; copies still arriving are no longer attributed to it. */
    PointCounters finishSchedule() {
        PointCounters result = merged(true, true);
        sender.stop();
        for (ReceiveAccounting r : receiveByTransport) {
            if (r != null) {
                r.stop();
            }
        }
        if (slowAccounting != null) {
            slowAccounting.stop();
        }
        return result;
    }

    /**
     * Every transport's counters added up; with more than one transport in the mix, each one's
     * copy is kept in {@link PointCounters#byTransport} too. The slow readers' counters are never
     * in the total: they ride along as {@link PointCounters#slow}.
     */
    private PointCounters merged(boolean completed, boolean withHistograms) {
        List<SessionTransport> ts = mix.transports();
        PointCounters total;
        if (ts.size() == 1) {
            ReceiveAccounting r = receive;
            total = (completed ? r.completedCounters() : r.counters()).copy(withHistograms);
        } else {
            total = new PointCounters();
            for (SessionTransport t : ts) {
                ReceiveAccounting r = receiveByTransport[t.ordinal()];
                PointCounters part = (completed ? r.completedCounters() : r.counters()).copy(withHistograms);
                total.add(part);
                total.byTransport.put(t.userName(), part);
            }
        }
        if (slowAccounting != null) {
            total.slow = (completed ? slowAccounting.completedCounters() : slowAccounting.counters()).copy(withHistograms);
        }
        return total;
    }

    /** Closes every connection of the level: politely (close frame) or, with {@code force}, at once. */
    void closeAll(boolean force) {
        churn.stop(); // the pool's sessions close with the rest
        throttle.clear(); // a closing slow reader reads at full speed, so its close is seen in time
        for (Connection c : sessions.inOrder()) {
            if (c.readBucket != null) {
                c.readBucket = null;
                if (c instanceof ReadySocket s) {
                    s.readInterest(true);
                }
            }
        }
        opener.dropQueued();
        for (Connection c : sessions.inOrder()) {
            c.close(force);
        }
        if (force) {
            sessions.clear();
            opener.reset(0, 0); // nothing of this level is in flight any more
        }
    }

    /** Fails every connection of the level that is not open yet (queued or mid-handshake). */
    void abandonOpening(String reason) {
        for (Connection c : List.copyOf(sessions.inOrder())) {
            if (c.isOpening()) {
                c.closingByUs = true;
                c.failOpen(reason); // queued ones were never in flight: openFailed knows the difference
            }
        }
        opener.dropQueued();
    }

    int openCount() {
        return sessions.openCount();
    }

    /** As {@link #openCount()} without the churn pool: the sessions a point's figures are about. */
    int steadyOpenCount() {
        return sessions.steadyOpenCount();
    }

    /** As {@link #steadyOpenCount()} per transport name, in the mix's order; empty with one transport. */
    java.util.Map<String, Integer> steadyOpenByTransport() {
        java.util.Map<String, Integer> m = new java.util.LinkedHashMap<>();
        if (mix.transports().size() > 1) {
            for (SessionTransport t : mix.transports()) {
                m.put(t.userName(), 0);
            }
            for (Connection c : sessions.inOrder()) {
                if (c.state() != Connection.State.CLOSED && c.inPoints()) {
                    m.merge(c.transport.userName(), 1, Integer::sum);
                }
            }
        }
        return m;
    }

    // --- ChurnCycle.Host ----------------------------------------------------------------------

    @Override
    public Connection replace(Connection old) {
        Connection fresh = Connection.create(this, target.transport(), old.transport, old.clientId, old.accounting,
                validate);
        sessions.replace(fresh);
        return fresh;
    }

    @Override
    public void connect(Connection c) {
        // Not through the paced queue: a reconnect starts now.
        opener.startNow(c, System.nanoTime());
    }

    // --- ConnectionEvents ------------------------------------------------------------------

    @Override
    public void opened(Connection c) {
        opener.opened(c);
        if (c.churnReconnect) {
            churn.reconnected(c, System.nanoTime());
        } else if (!c.slowReopen) {
            progress.connected.incrementAndGet();
        }
    }

    @Override
    public void openFailed(Connection c, String reason) {
        opener.failed(c);
        if (c.churnReconnect) {
            churn.reconnectFailed(c, reason, System.nanoTime());
        } else if (!c.slowReopen) { // a slow reader that failed to reopen: the point's sessions say so
            progress.fail(reason);
        }
    }

    @Override
    public void closed(Connection c, String reason) {
        if (c.churnPool && churn.running()) {
            churn.closed(c, reason, System.nanoTime()); // a cycle's close, or a pool session dropped: the churn's
            return;
        }
        if (!c.closingByUs) {
            c.accounting.connectionLost(reason);
            health.lost(reason);
            if (progress != null && progress.firstError == null) {
                progress.firstError = reason;
            }
        }
    }

    @Override
    public void protocolError(Connection c, String reason) {
        c.accounting.malformed();
        if (progress != null && progress.firstError == null) {
            progress.firstError = "protocol error: " + reason;
        }
    }

    @Override
    public void wantsFlush(Connection c) {
        if (!c.flushQueued) {
            c.flushQueued = true;
            flushList.add(c);
        }
    }

    @Override
    public void message(Connection c, byte[] buf, int start, int end) {
        c.accounting.message(c, buf, start, end);
    }

    @Override
    public void frame(Connection c, int messages) {
        c.accounting.frame(c, messages);
    }

    @Override
    public void heartbeat(Connection c) {
        health.heartbeat();
    }

    /** Server heartbeats (SockJS h frames, websocket pings) this loop received since it started (any level, any point). */
    long heartbeats() {
        return health.heartbeats();
    }

    /** Sessions lost since this loop started, by {@link LossReason} key (a copy). */
    java.util.Map<String, Integer> lostReasons() {
        return health.lostReasons();
    }

    // --- the loop --------------------------------------------------------------------------

    @Override
    public void run() {
        while (running) {
            try {
                iterate();
            } catch (IOException | RuntimeException e) {
                // A bug or an unexpected selector failure must not silently stop a loop.
                System.err.println("sockbench: I/O thread " + index + " error: " + e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        churn.stop();
        for (Connection c : sessions.inOrder()) {
            c.closingByUs = true;
            c.hardClose();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void iterate() throws IOException {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            task.run();
        }
        long now = System.nanoTime();
        opener.startDue(now);
        churn.tick(now);
        throttle.resumeDue(now);
        if (slowAccounting != null && now >= nextProbeNs) {
            nextProbeNs = now + PROBE_INTERVAL_NS;
            for (Connection c : sessions.inOrder()) {
                if (c.readBucket != null && c.isOpen()) {
                    c.probe();
                }
            }
        }
        sender.sendDue(target.transport());
        flush();

        long waitNs = nextWakeupNs(now);
        int ready;
        if (waitNs <= 0) {
            ready = selector.selectNow();
        } else if (waitNs >= 1_000_000) {
            ready = selector.select(waitNs / 1_000_000);
        } else {
            // epoll only waits in whole milliseconds: for a send due sooner, poll and park briefly
            // so the send is at most ~SHORT_PARK_NS late (the corrected RTT would include it).
            ready = selector.selectNow();
            if (ready == 0 && tasks.isEmpty()) {
                LockSupport.parkNanos(Math.min(waitNs, SHORT_PARK_NS));
            }
        }
        if (ready > 0) {
            handleSelected();
        }
        flush();
        if (ready > 0 && readCoalesceNs > 0 && tasks.isEmpty()) {
            // Busy: let more data pile up before the next epoll/read round, so each read syscall
            // carries many frames instead of one (a server sends each broadcast copy separately).
            // Costs at most readCoalesceNs of extra receive delay, only while data keeps coming.
            long untilSend = sender.done() ? Long.MAX_VALUE : sender.nextDueNs() - System.nanoTime();
            long park = Math.min(readCoalesceNs, untilSend);
            if (park > 0) {
                LockSupport.parkNanos(park);
            }
        }
        now = System.nanoTime();
        if (now >= nextTimeoutScanNs) {
            nextTimeoutScanNs = now + TIMEOUT_SCAN_NS;
            opener.expireSlow(now);
            churn.expireCloses(now);
        }
    }

    private long nextWakeupNs(long now) {
        long wait = 100_000_000; // idle: wake up every 100 ms to check deadlines
        if (!sender.done()) {
            wait = Math.min(wait, sender.nextDueNs() - System.nanoTime());
        }
        if (opener.anyInFlight() || churn.running()) {
            wait = Math.min(wait, Math.max(0, nextTimeoutScanNs - now));
        }
        if (churn.running()) {
            wait = Math.min(wait, churn.nextDueNs() - System.nanoTime());
        }
        wait = Math.min(wait, opener.untilNextPacedNs(now));
        if (slowAccounting != null) {
            wait = Math.min(wait, nextProbeNs - System.nanoTime());
        }
        long rearm = throttle.nextDueNs();
        if (rearm != Long.MAX_VALUE) {
            wait = Math.min(wait, rearm - System.nanoTime());
        }
        return wait;
    }

    private void handleSelected() {
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            ReadySocket s = (ReadySocket) key.attachment();
            try {
                if (!key.isValid()) {
                    continue;
                }
                if (key.isConnectable()) {
                    s.connectReady();
                    continue;
                }
                if (key.isWritable()) {
                    s.writeReady(gather);
                }
                if (key.isValid() && key.isReadable()) {
                    read(s);
                }
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    private void read(ReadySocket s) {
        ReadBucket bucket = s.session().readBucket;
        if (bucket != null) {
            readSlowly(s, bucket);
            return;
        }
        for (int r = 0; r < MAX_READS_PER_KEY; r++) {
            // The clock is read once per read syscall: every message in it arrived "now".
            int n = s.readReady(readBuffer, READ_BUFFER_BYTES);
            if (n <= 0 || s.session().state() == Connection.State.CLOSED || n < READ_BUFFER_BYTES) {
                return;
            }
        }
    }

    /**
     * A slow reader's read: at most what its bucket holds. A read that took the whole allowance
     * (or found none) pauses the socket until the bucket is full again; one that drained the
     * kernel's buffer first stays armed, since the selector only reports it when data arrives.
     */
    private void readSlowly(ReadySocket s, ReadBucket bucket) {
        long now = System.nanoTime();
        int allowed = bucket.allowance(now, READ_BUFFER_BYTES);
        if (allowed > 0) {
            int n = s.readReady(readBuffer, allowed);
            if (n > 0) {
                bucket.consume(n);
            }
            if (n < allowed) {
                return; // drained (or gone)
            }
        }
        if (s.session().state() != Connection.State.CLOSED) {
            throttle.pause(s, bucket.refilledAtNs(now));
        }
    }

    /** This loop's paused slow readers (tests). */
    int pausedReaders() {
        return throttle.size();
    }

    private void flush() {
        // A flush may queue more (e.g. a close frame); iterate by index.
        for (int i = 0; i < flushList.size(); i++) {
            Connection c = flushList.get(i);
            c.flushQueued = false;
            c.flush(gather);
        }
        flushList.clear();
    }
}
