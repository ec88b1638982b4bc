package sockbench.client.fleet;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.params.XReadParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The one place that talks to Redis (Jedis, pinned in pom.xml): the fleet's control and results
 * bus. One instance is one connection, for one thread. Everything else sees plain strings and
 * maps; every Jedis failure becomes a {@link BusException} naming the URL.
 */
public final class RedisBus implements AutoCloseable {

    /** Socket timeout, ms: longer than any blocking read this class issues. */
    private static final int SOCKET_TIMEOUT_MS = 15_000;
    /** Longest a blocking stream read waits, ms. */
    public static final int MAX_BLOCK_MS = 5_000;

    /** A stream entry: its id and fields. */
    public record Entry(String id, Map<String, String> fields) {
    }

    private final String url;
    private final Jedis jedis;

    private RedisBus(String url, Jedis jedis) {
        this.url = url;
        this.jedis = jedis;
    }

    /**
     * Connects and checks the server answers (PING).
     *
     * @param url redis://HOST[:PORT][/DB]
     * @throws IllegalArgumentException when the URL is not a redis:// URL
     * @throws BusException when nothing answers there
     */
    public static RedisBus connect(String url) {
        URI uri = checkUrl(url);
        Jedis j = null;
        try {
            j = new Jedis(uri.getPort() < 0 ? URI.create("redis://" + uri.getHost() + ":6379" + uri.getRawPath()) : uri,
                    SOCKET_TIMEOUT_MS);
            j.ping();
            return new RedisBus(url, j);
        } catch (JedisException e) {
            if (j != null) {
                j.close();
            }
            throw new BusException("Redis at " + url + " does not answer (" + oneLine(e)
                    + "): start it (make setup-redis installs redis-server) or pass the right --bus URL", e);
        }
    }

    /**
     * @return the parsed URL
     * @throws IllegalArgumentException when it is not redis://HOST[:PORT][/DB]
     */
    public static URI checkUrl(String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null
                || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().matches("/[0-9]{1,2}"))) {
            throw new IllegalArgumentException("expected redis://HOST[:PORT][/DB], got " + url);
        }
        return uri;
    }

    public String url() {
        return url;
    }

    /** The Redis server's clock (TIME), microseconds since the epoch. */
    public long timeMicros() {
        List<String> t = call(jedis::time);
        return Long.parseLong(t.get(0)) * 1_000_000L + Long.parseLong(t.get(1));
    }

    /** Sets a hash's fields and its time to live, ms. */
    public void putExpiring(String key, Map<String, String> fields, long ttlMs) {
        call(() -> {
            jedis.hset(key, fields);
            return jedis.pexpire(key, ttlMs);
        });
    }

    /** Sets a key to a value with a time to live, ms. */
    public void setExpiring(String key, String value, long ttlMs) {
        call(() -> jedis.set(key, value, SetParams.setParams().px(ttlMs)));
    }

    public boolean exists(String key) {
        return call(() -> jedis.exists(key));
    }

    /** Every hash whose key matches {@code pattern}, by key. */
    public Map<String, Map<String, String>> hashesMatching(String pattern) {
        return call(() -> {
            Map<String, Map<String, String>> out = new LinkedHashMap<>();
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> r = jedis.scan(cursor, new ScanParams().match(pattern).count(1000));
                for (String key : r.getResult()) {
                    Map<String, String> h = jedis.hgetAll(key);
                    if (!h.isEmpty()) {
                        out.put(key, h);
                    }
                }
                cursor = r.getCursor();
            } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
            return out;
        });
    }

    public void hset(String key, String field, String value, long ttlS) {
        call(() -> {
            jedis.hset(key, field, value);
            return jedis.expire(key, ttlS);
        });
    }

    public Map<String, String> hgetAll(String key) {
        return call(() -> jedis.hgetAll(key));
    }

    public void delete(String... keys) {
        call(() -> jedis.del(keys));
    }

    /** Appends an entry to a stream; returns its id. */
    public String append(String stream, Map<String, String> fields) {
        return call(() -> jedis.xadd(stream, StreamEntryID.NEW_ENTRY, fields).toString());
    }

    /**
     * Entries of {@code stream} after {@code afterId} ("0-0" = from the start), waiting up to
     * {@code blockMs} (1..{@link #MAX_BLOCK_MS}) for the first; empty when none came.
     */
    public List<Entry> read(String stream, String afterId, int blockMs) {
        return call(() -> {
            Map<String, StreamEntryID> from = new HashMap<>();
            from.put(stream, new StreamEntryID(afterId));
            var got = jedis.xread(XReadParams.xReadParams().block(Math.min(blockMs, MAX_BLOCK_MS)).count(1000), from);
            List<Entry> out = new ArrayList<>();
            if (got != null) {
                for (var e : got) {
                    for (StreamEntry s : e.getValue()) {
                        out.add(new Entry(s.getID().toString(), s.getFields()));
                    }
                }
            }
            return out;
        });
    }

    private <T> T call(java.util.function.Supplier<T> op) {
        try {
            return op.get();
        } catch (JedisException e) {
            throw new BusException("Redis at " + url + " failed: " + oneLine(e), e);
        }
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable c = e.getCause();
        if (c != null && c.getMessage() != null) {
            m += ": " + c.getMessage();
        }
        return m.replace('\n', ' ');
    }

    @Override
    public void close() {
        try {
            jedis.close();
        } catch (JedisException ignored) {
            // closing anyway
        }
    }
}
