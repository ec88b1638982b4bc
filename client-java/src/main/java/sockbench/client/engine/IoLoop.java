package sockbench.client.engine;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.java_websocket.WebSocketImpl;
import org.java_websocket.drafts.Draft_6455;
import org.java_websocket.framing.CloseFrame;
import org.java_websocket.handshake.HandshakeImpl1Client;
import sockbench.client.sockjs.SockJsFrameParser;

/**
 * One I/O thread: a selector driving a share of the connections. It opens them, reads with one
 * large buffer (many frames per read syscall, never one syscall per message), feeds the bytes to
 * each connection's {@link WebSocketImpl}, sends its connections' share of the schedule, and
 * writes each connection's queued frames with one gathering write.
 *
 * <p>Everything a loop owns (connections, counters, the parser) is touched only by its thread;
 * the controller talks to it by {@link #submit submitting tasks}.
 */
final class IoLoop implements Runnable {

    /** Read buffer size: large, so one read drains many frames. */
    static final int READ_BUFFER_BYTES = 256 * 1024;
    /** Max reads per connection per wake-up, so one busy connection cannot starve the others. */
    private static final int MAX_READS_PER_KEY = 4;
    /** Max sends per iteration before the loop goes back to reading. */
    private static final int MAX_SENDS_PER_ITERATION = 2048;
    /** How long the loop parks when the next due send is less than a millisecond away (epoll waits in ms). */
    private static final long SHORT_PARK_NS = 50_000;
    private static final long TIMEOUT_SCAN_NS = 50_000_000;
    private static final int GATHER = 32;

    private final int index;
    /** Pause after a busy round so the next reads carry more frames, nanoseconds (0 = off). */
    private final long readCoalesceNs;
    private final Target target;
    private final long originNs;
    private final long connectTimeoutNs;
    private final int maxInFlight;
    private final Selector selector;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    private final ByteBuffer[] gather = new ByteBuffer[GATHER];
    private final SockJsFrameParser parser = new SockJsFrameParser();
    private final Payload.Fields fields = new Payload.Fields();
    private final StringBuilder outText = new StringBuilder(256);
    private final Draft_6455 draftPrototype = new Draft_6455();
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final ArrayList<Connection> flushList = new ArrayList<>();
    private final ArrayDeque<Connection> toConnect = new ArrayDeque<>();
    private final List<Connection> opening = new ArrayList<>();
    private final PointCounters counters = new PointCounters();
    private volatile boolean running = true;
    private final Thread thread;

    /** This loop's connections of the current level, in ascending client id (the send ring). */
    private final ArrayList<Connection> ring = new ArrayList<>();
    /** The open connections taking part in the current point, in slot order, and their slots. */
    private final ArrayList<Connection> sendRing = new ArrayList<>();
    private int[] sendSlots = new int[0];
    private ConnectProgress progress;
    private int inFlight;

    private PointSchedule schedule;
    /** Send cursor: round k of the ring and position in it; message m = ring[idx].clientId + k·N. */
    private long cursorRound;
    private int cursorIdx;
    private boolean scheduleDone = true;
    /** Arrival time of the bytes being decoded, nanoTime. */
    private long arrivalNs;
    private long nextTimeoutScanNs;

    IoLoop(int index, Target target, long originNs, long connectTimeoutNs, int maxInFlight, long readCoalesceNs)
            throws IOException {
        this.index = index;
        this.readCoalesceNs = readCoalesceNs;
        this.target = target;
        this.originNs = originNs;
        this.connectTimeoutNs = connectTimeoutNs;
        this.maxInFlight = Math.max(1, maxInFlight);
        this.selector = Selector.open();
        this.thread = new Thread(this, "sockbench-io-" + index);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    Transport transport() {
        return target.transport();
    }

    SockJsFrameParser parser() {
        return parser;
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
        progress = p;
        ring.clear();
        opening.clear();
        toConnect.clear();
        inFlight = 0;
        for (int id : clientIds) {
            Connection c = new Connection(this, id);
            ring.add(c);
            toConnect.add(c);
        }
    }

    /** Client ids of this loop's open connections, ascending. */
    List<Integer> openClientIds() {
        List<Integer> ids = new ArrayList<>();
        for (Connection c : ring) {
            if (c.isOpen()) {
                ids.add(c.clientId);
            }
        }
        return ids;
    }

    /**
     * Starts following {@code s}. {@code slotOf} maps this loop's open client ids (ascending) to
     * their slot in the schedule: message m is sent by the client whose slot is m mod clients.
     */
    void startSchedule(PointSchedule s, List<Integer> ids, int[] slots) {
        counters.reset();
        schedule = s;
        sendRing.clear();
        // ring and ids are both in ascending client id: one merge walk, not a search per connection.
        int next = 0;
        for (Connection c : ring) {
            if (next < ids.size() && ids.get(next) == c.clientId) {
                sendRing.add(c);
                next++;
            }
        }
        sendSlots = slots;
        cursorRound = 0;
        cursorIdx = 0;
        scheduleDone = s.rate() <= 0 || sendRing.isEmpty() || currentMessage() >= s.totalCount();
    }

    PointCounters snapshot(boolean withHistograms) {
        return counters.copy(withHistograms);
    }

    /** Ends the point: no more sends; copies still arriving are no longer attributed to it. */
    PointCounters finishSchedule() {
        PointCounters result = counters.copy(true);
        schedule = null;
        scheduleDone = true;
        sendRing.clear();
        counters.reset();
        return result;
    }

    /** Closes every connection of the level politely (WebSocket close frame), then drops them. */
    void closeAll(boolean force) {
        toConnect.clear();
        for (Connection c : ring) {
            c.closingByUs = true;
            if (c.state == Connection.State.CLOSED) {
                continue;
            }
            if (!force && c.state == Connection.State.OPEN && c.ws != null) {
                c.ws.close(CloseFrame.NORMAL, "done");
            } else {
                hardClose(c);
            }
        }
        if (force) {
            ring.clear();
            opening.clear();
            inFlight = 0;
        }
    }

    /** Fails every connection of the level that is not open yet (queued or mid-handshake). */
    void abandonOpening(String reason) {
        for (Connection c : ring) {
            if (c.state != Connection.State.OPEN && c.state != Connection.State.CLOSED) {
                c.closingByUs = true;
                c.deadlineNs = 0;
                if (c.channel == null) {
                    c.state = Connection.State.CLOSED; // never started: not in flight
                    progress.fail(reason);
                } else {
                    openFailed(c, reason);
                }
            }
        }
        toConnect.clear();
    }

    int openCount() {
        int n = 0;
        for (Connection c : ring) {
            if (c.state != Connection.State.CLOSED) {
                n++;
            }
        }
        return n;
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
        for (Connection c : ring) {
            c.closingByUs = true;
            hardClose(c);
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
        startConnects(now);
        sendDue();
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
            long untilSend = scheduleDone ? Long.MAX_VALUE : schedule.dueNs(currentMessage()) - System.nanoTime();
            long park = Math.min(readCoalesceNs, untilSend);
            if (park > 0) {
                LockSupport.parkNanos(park);
            }
        }
        now = System.nanoTime();
        if (now >= nextTimeoutScanNs) {
            nextTimeoutScanNs = now + TIMEOUT_SCAN_NS;
            expireSlowOpens(now);
        }
    }

    private long nextWakeupNs(long now) {
        long wait = 100_000_000; // idle: wake up every 100 ms to check deadlines
        if (!scheduleDone) {
            wait = Math.min(wait, schedule.dueNs(currentMessage()) - System.nanoTime());
        }
        if (!opening.isEmpty()) {
            wait = Math.min(wait, Math.max(0, nextTimeoutScanNs - now));
        }
        return wait;
    }

    private void handleSelected() {
        Set<SelectionKey> keys = selector.selectedKeys();
        Iterator<SelectionKey> it = keys.iterator();
        while (it.hasNext()) {
            SelectionKey key = it.next();
            it.remove();
            Connection c = (Connection) key.attachment();
            try {
                if (!key.isValid()) {
                    continue;
                }
                if (key.isConnectable()) {
                    finishConnect(c);
                    continue;
                }
                if (key.isWritable()) {
                    flushConnection(c);
                }
                if (key.isValid() && key.isReadable()) {
                    read(c);
                }
            } catch (CancelledKeyException e) {
                // closed meanwhile
            }
        }
    }

    // --- connecting ---------------------------------------------------------------------------

    private void startConnects(long now) {
        while (inFlight < maxInFlight && !toConnect.isEmpty()) {
            Connection c = toConnect.poll();
            inFlight++;
            opening.add(c);
            c.deadlineNs = now + connectTimeoutNs;
            try {
                SocketChannel ch = SocketChannel.open();
                c.channel = ch;
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                boolean connected = ch.connect(target.address());
                c.key = ch.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, c);
                if (connected) {
                    startHandshake(c);
                }
            } catch (IOException | RuntimeException e) {
                openFailed(c, "connect: " + e);
            }
        }
    }

    private void finishConnect(Connection c) {
        try {
            if (c.channel.finishConnect()) {
                c.key.interestOps(SelectionKey.OP_READ);
                startHandshake(c);
            }
        } catch (IOException | RuntimeException e) {
            openFailed(c, "connect: " + e);
        }
    }

    private void startHandshake(Connection c) throws IOException {
        c.state = Connection.State.HANDSHAKING;
        c.ws = new WebSocketImpl(c, draftPrototype);
        c.ws.setChannel(c.channel);
        c.ws.setSelectionKey(c.key);
        HandshakeImpl1Client request = new HandshakeImpl1Client();
        request.setResourceDescriptor(target.websocketPath(c.clientId));
        request.put("Host", target.hostHeader());
        try {
            c.ws.startHandshake(request);
        } catch (org.java_websocket.exceptions.InvalidHandshakeException e) {
            throw new IOException("handshake: " + e.getMessage(), e);
        }
    }

    /** The connection can carry messages (raw: handshake done; SockJS: "o" received). */
    void onReady(Connection c) {
        if (c.state == Connection.State.OPEN || c.state == Connection.State.CLOSED) {
            return;
        }
        c.state = Connection.State.OPEN;
        opening.remove(c);
        inFlight--;
        progress.connected.incrementAndGet();
    }

    private void openFailed(Connection c, String reason) {
        if (c.state == Connection.State.CLOSED) {
            return;
        }
        boolean wasOpening = c.state != Connection.State.OPEN;
        c.state = Connection.State.CLOSED;
        if (wasOpening) {
            opening.remove(c);
            inFlight--;
            progress.fail(reason);
        }
        closeChannel(c);
    }

    private void expireSlowOpens(long now) {
        for (int i = opening.size() - 1; i >= 0; i--) {
            Connection c = opening.get(i);
            if (now >= c.deadlineNs) {
                c.closingByUs = true;
                openFailed(c, "timed out after " + connectTimeoutNs / 1_000_000 + " ms");
            }
        }
    }

    // --- closing --------------------------------------------------------------------------------

    /** The connection is gone (server closed it, SockJS close frame, I/O error). */
    void onClosed(Connection c, String reason) {
        if (c.state == Connection.State.CLOSED) {
            return;
        }
        if (c.state != Connection.State.OPEN) {
            openFailed(c, reason);
            return;
        }
        c.state = Connection.State.CLOSED;
        if (!c.closingByUs) {
            counters.connectionsLost++;
            if (progress != null && progress.firstError == null) {
                progress.firstError = reason;
            }
        }
        closeChannel(c);
    }

    void onProtocolError(Connection c, String reason) {
        counters.malformed++;
        onClosed(c, "protocol error: " + reason);
    }

    void noteError(Connection c, String reason) {
        if (progress != null && progress.firstError == null) {
            progress.firstError = reason;
        }
    }

    private void hardClose(Connection c) {
        if (c.state == Connection.State.CLOSED) {
            return;
        }
        if (c.state != Connection.State.OPEN) {
            openFailed(c, "closed before it opened");
        } else {
            c.state = Connection.State.CLOSED;
            closeChannel(c);
        }
    }

    private static void closeChannel(Connection c) {
        if (c.key != null) {
            c.key.cancel();
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // already broken
            }
        }
    }

    // --- reading --------------------------------------------------------------------------------

    private void read(Connection c) {
        for (int r = 0; r < MAX_READS_PER_KEY; r++) {
            readBuffer.clear();
            int n;
            try {
                n = c.channel.read(readBuffer);
            } catch (IOException e) {
                lostConnection(c, "read: " + e.getMessage());
                return;
            }
            if (n < 0) {
                lostConnection(c, "server closed the TCP connection");
                return;
            }
            if (n == 0) {
                return;
            }
            readBuffer.flip();
            counters.bytesRead += n;
            counters.reads++;
            arrivalNs = System.nanoTime();
            c.ws.decode(readBuffer);
            if (c.state == Connection.State.CLOSED || n < READ_BUFFER_BYTES) {
                return;
            }
        }
    }

    private void lostConnection(Connection c, String reason) {
        if (c.ws != null && c.state == Connection.State.OPEN) {
            c.ws.eot(); // lets Java-WebSocket finish its state; it calls onWebsocketClose -> onClosed
        }
        onClosed(c, reason);
    }

    /**
     * One application message arrived on {@code c}. Every copy counts towards the received rate;
     * the sender's own copy also gives an RTT sample.
     */
    void onMessage(Connection c, CharSequence text, int start, int end) {
        PointSchedule s = schedule;
        if (s == null) {
            return; // between points: nothing is attributed
        }
        long now = arrivalNs;
        counters.receivedAll++;
        if (now >= s.windowStartNs() && now < s.windowEndNs()) {
            counters.receivedInWindow++;
        }
        int rest = Payload.parseHeader(text, start, end, fields);
        if (rest < 0) {
            counters.malformed++;
            return;
        }
        if (fields.epoch != s.measureEpoch() || s.rate() <= 0) {
            return;
        }
        counters.arrivedMeasured++;
        if (fields.client != c.clientId) {
            return;
        }
        if (!Payload.parseTimes(text, rest, end, fields)) {
            counters.malformed++;
            return;
        }
        if (fields.epoch < c.lastOwnEpoch || (fields.epoch == c.lastOwnEpoch && fields.seq <= c.lastOwnSeq)) {
            counters.outOfOrder++;
        } else {
            c.lastOwnEpoch = fields.epoch;
            c.lastOwnSeq = fields.seq;
        }
        counters.ownReturned++;
        long arrivedRel = now - originNs;
        // Corrected: from when the message was due (no coordinated omission).
        counters.rttCorrectedMicros.recordValue(Math.max(0, arrivedRel - fields.scheduledNs) / 1000);
        // Uncorrected: from when it was actually written.
        counters.rttUncorrectedMicros.recordValue(Math.max(0, arrivedRel - fields.sentNs) / 1000);
    }

    // --- sending --------------------------------------------------------------------------------

    private long currentMessage() {
        return sendSlots[cursorIdx] + cursorRound * schedule.clients();
    }

    private void advanceCursor() {
        if (++cursorIdx == sendRing.size()) {
            cursorIdx = 0;
            cursorRound++;
        }
        if (currentMessage() >= schedule.totalCount()) {
            scheduleDone = true;
        }
    }

    /** Sends every message of this loop's share whose due time has come. */
    private void sendDue() {
        if (scheduleDone) {
            return;
        }
        PointSchedule s = schedule;
        if (currentMessage() >= s.totalCount()) {
            scheduleDone = true;
            return;
        }
        for (int sent = 0; sent < MAX_SENDS_PER_ITERATION && !scheduleDone; sent++) {
            long m = currentMessage();
            long due = s.dueNs(m);
            long now = System.nanoTime();
            if (due > now) {
                return;
            }
            boolean measured = s.isMeasured(m);
            long phaseEnd = measured ? s.measureEndNs() : s.warmupEndNs();
            Connection c = sendRing.get(cursorIdx);
            if (!c.isOpen()) {
                if (measured) {
                    counters.skippedClosed++;
                }
            } else if (now >= phaseEnd) {
                if (measured) {
                    counters.skipped++;
                }
            } else {
                send(c, measured ? s.measureEpoch() : s.warmupEpoch(), m, due, now, s.payloadBytes());
                if (measured) {
                    counters.sent++;
                }
            }
            advanceCursor();
        }
    }

    private void send(Connection c, long epoch, long m, long dueNs, long nowNs, int payloadBytes) {
        StringBuilder b = outText;
        b.setLength(0);
        boolean framed = target.transport() == Transport.SOCKJS;
        if (framed) {
            b.append("[\""); // SockJS: the client sends a JSON array of strings
        }
        Payload.append(b, epoch, c.clientId, m, dueNs - originNs, nowNs - originNs, payloadBytes);
        if (framed) {
            b.append("\"]");
        }
        try {
            c.ws.send(b.toString());
        } catch (RuntimeException e) {
            onClosed(c, "send: " + e);
        }
    }

    // --- writing --------------------------------------------------------------------------------

    void queueFlush(Connection c) {
        if (!c.flushQueued) {
            c.flushQueued = true;
            flushList.add(c);
        }
    }

    private void flush() {
        // flushConnection may queue more (e.g. a close frame); iterate by index.
        for (int i = 0; i < flushList.size(); i++) {
            Connection c = flushList.get(i);
            c.flushQueued = false;
            flushConnection(c);
        }
        flushList.clear();
    }

    /** Writes the connection's queued frames with one gathering write per batch. */
    private void flushConnection(Connection c) {
        if (c.ws == null || c.channel == null || !c.channel.isOpen()) {
            return;
        }
        try {
            while (!c.ws.outQueue.isEmpty()) {
                int k = 0;
                for (ByteBuffer b : c.ws.outQueue) {
                    gather[k++] = b;
                    if (k == GATHER) {
                        break;
                    }
                }
                c.channel.write(gather, 0, k);
                boolean blocked = false;
                for (int i = 0; i < k; i++) {
                    if (gather[i].hasRemaining()) {
                        blocked = true;
                        break;
                    }
                    c.ws.outQueue.poll();
                }
                java.util.Arrays.fill(gather, 0, k, null);
                if (blocked) {
                    // Socket buffer full: let the selector tell us when it drains.
                    if (c.key.isValid()) {
                        c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    }
                    return;
                }
            }
            if (c.key.isValid() && (c.key.interestOps() & SelectionKey.OP_WRITE) != 0) {
                c.key.interestOps(SelectionKey.OP_READ);
            }
            if (c.ws.isFlushAndClose()) {
                c.ws.closeConnection(); // close frame sent: now close the socket
            }
        } catch (IOException e) {
            lostConnection(c, "write: " + e.getMessage());
        } catch (CancelledKeyException e) {
            // closed meanwhile
        }
    }
}
