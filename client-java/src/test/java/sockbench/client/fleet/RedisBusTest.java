package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import sockbench.client.testserver.RedisServerProcess;

/**
 * The Jedis fence against a real redis-server: every operation the fleet uses, so a Jedis
 * upgrade that renames or changes one fails here, not in a benchmark.
 */
class RedisBusTest {

    @Test
    void everyOperationTheFleetUsesWorks() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start(); RedisBus bus = RedisBus.connect(redis.url())) {
            long t0 = bus.timeMicros();
            long wall = System.currentTimeMillis() * 1000;
            assertTrue(Math.abs(t0 - wall) < 5_000_000, "TIME is the server's clock in µs");

            bus.putExpiring("sockbench:agent:a", Map.of("run", "r", "agent", "a"), 300);
            bus.putExpiring("sockbench:agent:b", Map.of("run", "s", "agent", "b"), 60_000);
            assertTrue(bus.exists("sockbench:agent:a"));
            assertEquals(Map.of("run", "r", "agent", "a"), bus.hashesMatching("sockbench:agent:*").get("sockbench:agent:a"));
            assertEquals(2, bus.hashesMatching("sockbench:agent:*").size());
            Thread.sleep(500);
            assertFalse(bus.exists("sockbench:agent:a"), "the time to live is in ms");

            bus.hset("h", "x", "1", 60);
            bus.hset("h", "y", "2", 60);
            assertEquals(Map.of("x", "1", "y", "2"), bus.hgetAll("h"));
            bus.delete("h");
            assertEquals(Map.of(), bus.hgetAll("h"));

            String first = bus.append("s", Map.of("type", "open", "seq", "1"));
            bus.append("s", Map.of("type", "close", "seq", "2"));
            List<RedisBus.Entry> all = bus.read("s", "0-0", 100);
            assertEquals(2, all.size());
            assertEquals(first, all.get(0).id());
            assertEquals("close", all.get(1).fields().get("type"));
            long t = System.nanoTime();
            assertEquals(List.of(), bus.read("s", all.get(1).id(), 300), "nothing new");
            assertTrue(System.nanoTime() - t >= 250_000_000L, "the read blocked for its time");
        }
    }

    @Test
    void onlyRedisUrlsAreAccepted() {
        RedisBus.checkUrl("redis://127.0.0.1:6379/0");
        RedisBus.checkUrl("redis://host");
        for (String bad : List.of("http://127.0.0.1:6379", "redis://", "127.0.0.1:6379", "redis://h:1/zero")) {
            assertThrows(IllegalArgumentException.class, () -> RedisBus.checkUrl(bad), bad);
        }
    }
}
