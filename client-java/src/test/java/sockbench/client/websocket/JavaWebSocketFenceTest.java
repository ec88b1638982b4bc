package sockbench.client.websocket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Java-WebSocket fence ({@link JavaWebSocketFence}): the jar on the classpath is the version
 * pom.xml pins, every name the fence lists exists on it, the fence uses no Java-WebSocket name it
 * does not list, no other main class uses Java-WebSocket at all, and the fence does its job (an
 * upgrade accepted or refused, our frames framed and masked, the closing handshake).
 */
class JavaWebSocketFenceTest {

    private static final Path FENCE = Path.of("src/main/java/sockbench/client/websocket/JavaWebSocketFence.java");
    private static final Path MAIN = Path.of("src/main/java");
    private static final String LIBRARY = "org.java_websocket";

    // --- the pinned version and the names -----------------------------------------------------

    static String pinnedVersion() throws IOException {
        Matcher m = Pattern.compile("<java-websocket\\.version>([^<]+)</java-websocket\\.version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "pom.xml pins no java-websocket.version");
        return m.group(1).trim();
    }

    /** The version recorded in the jar that the library's classes are loaded from. */
    static String versionOnTheClasspath() throws Exception {
        Class<?> impl = Class.forName(LIBRARY + ".WebSocketImpl");
        URL where = impl.getProtectionDomain().getCodeSource().getLocation();
        Path jar = Path.of(where.toURI());
        assertTrue(Files.isRegularFile(jar), "Java-WebSocket is not loaded from a jar: " + jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            var entry = file.getJarEntry("META-INF/maven/org.java-websocket/Java-WebSocket/pom.properties");
            assertNotNull(entry, jar + " has no Java-WebSocket pom.properties");
            Properties p = new Properties();
            try (InputStream in = file.getInputStream(entry)) {
                p.load(in);
            }
            return p.getProperty("version");
        }
    }

    @Test
    void theJavaWebSocketOnTheClasspathIsTheVersionPomXmlPins() throws Exception {
        assertEquals(pinnedVersion(), versionOnTheClasspath(),
                "the fence's names were checked against the pinned version only: check them (this test) "
                        + "and JavaWebSocketFence.NAMES before changing java-websocket.version");
    }

    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
            "int", int.class, "long", long.class, "boolean", boolean.class, "byte", byte.class);

    private static Class<?> type(String name) throws ClassNotFoundException {
        Class<?> p = PRIMITIVES.get(name);
        return p != null ? p : Class.forName(name);
    }

    /** Looks a listed name up on the classpath; returns why it is missing, or null. */
    static String missing(String name) {
        int hash = name.indexOf('#');
        try {
            Class<?> owner = Class.forName(hash < 0 ? name : name.substring(0, hash));
            if (hash < 0) {
                return null;
            }
            String member = name.substring(hash + 1);
            int paren = member.indexOf('(');
            if (paren < 0) {
                owner.getField(member);
                return null;
            }
            String params = member.substring(paren + 1, member.length() - 1);
            List<Class<?>> types = new ArrayList<>();
            for (String t : params.isEmpty() ? new String[0] : params.split(",")) {
                types.add(type(t.trim()));
            }
            Class<?>[] array = types.toArray(new Class<?>[0]);
            String method = member.substring(0, paren);
            if (method.equals("<init>")) {
                owner.getConstructor(array);
            } else {
                owner.getMethod(method, array);
            }
            return null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return name + " (" + e + ")";
        }
    }

    @Test
    void everyNameTheFenceListsExistsOnTheJar() {
        assertTrue(JavaWebSocketFence.NAMES.size() > 20, "the fence lists its names");
        List<String> missing = new ArrayList<>();
        for (JavaWebSocketFence.Name n : JavaWebSocketFence.NAMES) {
            assertFalse(n.why().isBlank(), n.name() + " says why it is used");
            assertTrue(n.name().startsWith(LIBRARY + "."), n.name());
            String why = missing(n.name());
            if (why != null) {
                missing.add(why);
            }
        }
        assertEquals(List.of(), missing, "names the fence uses, missing from the Java-WebSocket on the classpath");
    }

    @Test
    void theNameCheckFailsForANameThatIsNotThere() {
        assertNull(missing(LIBRARY + ".WebSocketImpl#decode(java.nio.ByteBuffer)"));
        assertNotNull(missing(LIBRARY + ".WebSocketImpl#decode(java.lang.String)"));
        assertNotNull(missing(LIBRARY + ".WebSocketImpl#noSuchField"));
        assertNotNull(missing(LIBRARY + ".NoSuchClass"));
    }

    // --- the fence's source against its list ---------------------------------------------------

    /** The fence's source without its NAMES table (the code that uses the names). */
    static String fenceCode() throws IOException {
        String source = Files.readString(FENCE);
        int table = source.indexOf("static final List<Name> NAMES = List.of(");
        int end = source.indexOf("));\n", table);
        assertTrue(table > 0 && end > table, "the NAMES table was not found in " + FENCE);
        return source.substring(0, table) + source.substring(end + 4);
    }

    /**
     * Every Java-WebSocket name the fence's code uses, as {@code class} (imports) and
     * {@code class#member} (constructors as {@code <init>}, library callbacks on
     * WebSocketListener), read from the source.
     */
    static Set<String> namesUsedIn(String code) {
        Set<String> used = new TreeSet<>();
        Map<String, String> imported = new HashMap<>();
        Matcher imports = Pattern.compile("(?m)^import (" + Pattern.quote(LIBRARY) + "\\.(?:\\w+\\.)*(\\w+));").matcher(code);
        while (imports.find()) {
            imported.put(imports.group(2), imports.group(1));
            used.add(imports.group(1));
        }
        Map<String, String> variables = new HashMap<>();
        for (Map.Entry<String, String> e : imported.entrySet()) {
            String simple = Pattern.quote(e.getKey());
            Matcher created = Pattern.compile("\\bnew " + simple + "\\(").matcher(code);
            while (created.find()) {
                used.add(e.getValue() + "#<init>");
            }
            Matcher statics = Pattern.compile("\\b" + simple + "\\.(\\w+)").matcher(code);
            while (statics.find()) {
                used.add(e.getValue() + "#" + statics.group(1));
            }
            Matcher declared = Pattern.compile("\\b" + simple + "\\s+(\\w+)\\s*[=;,)]").matcher(code);
            while (declared.find()) {
                variables.put(declared.group(1), e.getValue());
            }
        }
        for (Map.Entry<String, String> v : variables.entrySet()) {
            Matcher member = Pattern.compile("(?<![\\w.])" + Pattern.quote(v.getKey()) + "\\.(\\w+)").matcher(code);
            while (member.find()) {
                if (!isPlainJava(member.group(1))) {
                    used.add(v.getValue() + "#" + member.group(1));
                }
            }
        }
        Matcher overrides = Pattern.compile("@Override\\s+public\\s+[\\w.<>]+\\s+(\\w+)\\(").matcher(code);
        while (overrides.find()) {
            used.add(LIBRARY + ".WebSocketListener#" + overrides.group(1));
        }
        return used;
    }

    /** A method every object or exception has (getMessage on the library's exception is not a library name). */
    private static boolean isPlainJava(String member) {
        return Stream.of(Throwable.class.getMethods()).anyMatch(m -> m.getName().equals(member));
    }

    /** The listed names without their parameter lists. */
    static Set<String> listedNames() {
        return JavaWebSocketFence.NAMES.stream()
                .map(n -> n.name().replaceFirst("\\(.*", ""))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theFenceListsEveryJavaWebSocketNameItUses() throws IOException {
        String code = fenceCode();
        Set<String> used = namesUsedIn(code);
        assertTrue(used.contains(LIBRARY + ".WebSocketImpl#decode") && used.contains(LIBRARY + ".WebSocketImpl#outQueue")
                && used.contains(LIBRARY + ".WebSocketListener#onWriteDemand"), "the scan found nothing: it is broken: " + used);
        Set<String> unlisted = new TreeSet<>(used);
        unlisted.removeAll(listedNames());
        assertEquals(Set.of(), unlisted, "Java-WebSocket names JavaWebSocketFence uses but does not list in NAMES");

        Matcher inline = Pattern.compile("(?m)^(?!import ).*\\b" + Pattern.quote(LIBRARY) + "\\.").matcher(code);
        assertFalse(inline.find(), "write library names through an import so this scan sees them: "
                + (inline.find(0) ? inline.group() : ""));
    }

    @Test
    void theFenceListsNoNameItDoesNotUse() throws IOException {
        Set<String> stale = listedNames();
        stale.removeAll(namesUsedIn(fenceCode()));
        assertEquals(Set.of(), stale, "names in JavaWebSocketFence.NAMES that its code no longer uses");
    }

    @Test
    void theScanSeesEveryKindOfUse() {
        String code = "import org.java_websocket.Foo;\nimport org.java_websocket.x.Bar;\n"
                + "class C { private Foo f; void m(Bar b) { new Foo(); f.go(); b.getMessage(); Bar.CONST; }\n"
                + "  @Override\n  public void onSomething(Foo x) {} }";
        assertEquals(Set.of(LIBRARY + ".Foo", LIBRARY + ".x.Bar", LIBRARY + ".Foo#<init>", LIBRARY + ".Foo#go",
                LIBRARY + ".x.Bar#CONST", LIBRARY + ".WebSocketListener#onSomething"), namesUsedIn(code));
    }

    @Test
    void noOtherMainClassUsesJavaWebSocket() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Files.walk(MAIN)) {
            offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.normalize().equals(FENCE.normalize()))
                    .filter(p -> {
                        try {
                            return Files.readString(p).contains(LIBRARY);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    })
                    .map(Path::toString).sorted().collect(Collectors.toList());
        }
        assertEquals(List.of(), offenders, "only JavaWebSocketFence may use " + LIBRARY);
    }

    // --- what the fence does --------------------------------------------------------------------

    /** Records what the library reports. */
    static final class Recorder implements JavaWebSocketFence.Events {
        int flushes;
        final List<String> closes = new ArrayList<>();
        final List<String> unexpected = new ArrayList<>();

        @Override
        public void wantsFlush() {
            flushes++;
        }

        @Override
        public void closedByLibrary(int code, String reason) {
            closes.add(code + " " + reason);
        }

        @Override
        public void unexpectedMessage(String what) {
            unexpected.add(what);
        }
    }

    /** Takes every queued buffer off {@code queue}, as the writer would, and returns their bytes. */
    static byte[] takeAll(Queue<ByteBuffer> queue) {
        List<byte[]> parts = new ArrayList<>();
        int n = 0;
        ByteBuffer b;
        while ((b = queue.poll()) != null) {
            byte[] part = new byte[b.remaining()];
            b.get(part);
            parts.add(part);
            n += part.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /** The payload of one client frame (masked, as a client's must be), checking its first byte. */
    static byte[] unmaskedPayload(byte[] frame, int firstByte) {
        assertEquals(firstByte, frame[0] & 0xFF, "FIN and opcode");
        assertTrue((frame[1] & 0x80) != 0, "a client frame is masked");
        int n = frame[1] & 0x7F;
        assertTrue(n < 126, "short test payloads");
        assertEquals(2 + 4 + n, frame.length, "one frame");
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) (frame[6 + i] ^ frame[2 + (i % 4)]);
        }
        return out;
    }

    private SocketChannel channel;
    private Recorder events;

    @AfterEach
    void closeChannel() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }

    /** A fence on an unconnected socket (nothing is read or written here) that has queued its request. */
    private JavaWebSocketFence started(String path, String host) throws IOException {
        channel = SocketChannel.open();
        events = new Recorder();
        JavaWebSocketFence fence = new JavaWebSocketFence(channel, null, events);
        fence.startHandshake(path, host, null);
        return fence;
    }

    /** The server's answer to the request {@code fence} queued (taken off its queue). */
    private static byte[] answer(JavaWebSocketFence fence, boolean rightAccept) {
        String request = new String(takeAll(fence.outgoing()), StandardCharsets.US_ASCII);
        return ServerUpgrade.response(request, rightAccept).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void anAcceptedUpgradeThenOurFramesAndTheClosingHandshake() throws Exception {
        JavaWebSocketFence fence = started("/broadcast/123/abc/websocket", "127.0.0.1:8080");
        assertTrue(events.flushes > 0, "the request is queued and the writer called");
        String request = new String(takeAll(fence.outgoing()), StandardCharsets.US_ASCII);
        assertTrue(request.startsWith("GET /broadcast/123/abc/websocket HTTP/1.1\r\n"), request);
        assertTrue(request.contains("Host: 127.0.0.1:8080\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\n"), request);

        byte[] response = ServerUpgrade.response(request, true).getBytes(StandardCharsets.US_ASCII);
        fence.decodeUpgradeResponse(response, 0, response.length);
        assertTrue(fence.upgraded());
        assertEquals(List.of(), events.closes);

        fence.sendText("3:1:7:100:200:xx");
        assertArrayEquals("3:1:7:100:200:xx".getBytes(StandardCharsets.US_ASCII),
                unmaskedPayload(takeAll(fence.outgoing()), 0x81));
        byte[] ping = {'p', 'i', 'n', 'g', '!'};
        fence.sendPong(ping, 1, 4);
        assertArrayEquals(new byte[] {'i', 'n', 'g'}, unmaskedPayload(takeAll(fence.outgoing()), 0x8A));

        assertFalse(fence.closeAfterFlush());
        fence.closeNormally("done");
        assertTrue(fence.closeAfterFlush(), "the socket closes once our close frame is written");
        byte[] close = unmaskedPayload(takeAll(fence.outgoing()), 0x88);
        assertEquals(1000, ((close[0] & 0xFF) << 8) | (close[1] & 0xFF));
        assertEquals("done", new String(close, 2, close.length - 2, StandardCharsets.US_ASCII));
        fence.closeConnection();
        assertFalse(channel.isOpen(), "the library closed the socket");
        assertEquals(List.of("1000 done"), events.closes);
        assertEquals(List.of(), events.unexpected);
    }

    @Test
    void aWrongAcceptKeyRefusesTheUpgrade() throws Exception {
        JavaWebSocketFence fence = started("/broadcast/websocket", "localhost");
        byte[] response = answer(fence, false);
        int flushes = events.flushes;
        fence.decodeUpgradeResponse(response, 0, response.length);
        assertFalse(fence.upgraded());
        // The library closes as it closes after our close frame: once the (empty) queue is flushed.
        assertTrue(events.flushes > flushes && fence.closeAfterFlush(), "the refusal asks for the flush that closes");
        assertEquals(List.of(), events.closes);
        fence.closeConnection();
        assertEquals(1, events.closes.size(), "the refusal is reported: " + events.closes);
        assertFalse(channel.isOpen());
    }

    @Test
    void anUpgradeResponseSplitAcrossReadsIsCheckedOnceComplete() throws Exception {
        JavaWebSocketFence fence = started("/broadcast/websocket", "localhost");
        byte[] response = answer(fence, true);
        int half = response.length / 2;
        fence.decodeUpgradeResponse(response, 0, half);
        assertFalse(fence.upgraded(), "not before the blank line");
        fence.decodeUpgradeResponse(response, half, response.length);
        assertTrue(fence.upgraded());
        assertEquals(List.of(), events.closes);
    }

    @Test
    void anExtensionOfferGoesOutAndTheAnswerIsHandedBackUnchecked() throws Exception {
        channel = SocketChannel.open();
        events = new Recorder();
        JavaWebSocketFence fence = new JavaWebSocketFence(channel, null, events);
        fence.startHandshake("/broadcast/websocket", "localhost", DeflateNegotiation.OFFER);
        String request = new String(takeAll(fence.outgoing()), StandardCharsets.US_ASCII);
        assertTrue(request.contains("\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"), request);
        assertNull(fence.answeredExtensions(), "nothing before the answer");
        byte[] response = ServerUpgrade.response(request, true,
                "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n").getBytes(StandardCharsets.US_ASCII);
        fence.decodeUpgradeResponse(response, 0, response.length);
        assertTrue(fence.upgraded(), "the library accepts any extension answer: DeflateNegotiation judges it");
        assertEquals("permessage-deflate; server_no_context_takeover", fence.answeredExtensions());
    }

    @Test
    void withoutAnOfferTheRequestHasNoExtensionsHeader() throws Exception {
        JavaWebSocketFence fence = started("/broadcast/websocket", "localhost");
        String request = new String(takeAll(fence.outgoing()), StandardCharsets.US_ASCII);
        assertFalse(request.toLowerCase(java.util.Locale.ROOT).contains("sec-websocket-extensions"), request);
        byte[] response = ServerUpgrade.response(request, true).getBytes(StandardCharsets.US_ASCII);
        fence.decodeUpgradeResponse(response, 0, response.length);
        assertEquals("", fence.answeredExtensions());
    }
}
