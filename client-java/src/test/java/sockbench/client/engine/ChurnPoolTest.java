package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The churn pool is every k-th client id (id % k == k - 1, k = max(2, round(100 / PCT))): a rule on
 * the id alone, so each agent of a fleet finds its own members, and its size is the level's share.
 */
class ChurnPoolTest {

    @Test
    void fivePercentIsEveryTwentiethIdEndingTheGroupOfTwenty() {
        ChurnPool pool = ChurnPool.of(5);
        assertTrue(pool.active());
        assertFalse(pool.contains(0), "client 0 sends first and is never in the pool");
        assertTrue(pool.contains(19));
        assertTrue(pool.contains(39));
        assertFalse(pool.contains(20));
        assertEquals(50, pool.size(1000));
        assertEquals(50, IntStream.range(0, 1000).filter(pool::contains).count(), "size counts the members");
    }

    @Test
    void fiftyPercentIsEveryOddIdAndSmallPercentsRoundTheirStride() {
        ChurnPool half = ChurnPool.of(50);
        assertTrue(half.contains(1));
        assertFalse(half.contains(2));
        assertEquals(5, half.size(11));
        // 100 / 3 = 33.3 -> every 33rd id
        assertEquals(3, ChurnPool.of(3).size(100));
        assertTrue(ChurnPool.of(3).contains(32));
    }

    @Test
    void noChurnHasNoMemberAndOutOfRangeIsRefused() {
        ChurnPool none = ChurnPool.of(0);
        assertFalse(none.active());
        assertFalse(none.contains(1));
        assertEquals(0, none.size(100_000));
        assertThrows(IllegalArgumentException.class, () -> ChurnPool.of(50.5));
        assertThrows(IllegalArgumentException.class, () -> ChurnPool.of(-1));
        assertThrows(IllegalArgumentException.class, () -> ChurnPool.of(Double.NaN));
    }
}
