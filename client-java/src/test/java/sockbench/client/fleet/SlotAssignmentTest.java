package sockbench.client.fleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Client i on agent i mod A; schedule slots round robin over the agents, each slot taken once. */
class SlotAssignmentTest {

    @Test
    void clientsGoToAgentIModA() {
        assertEquals(List.of(0, 3, 6, 9), SlotAssignment.clientIdsOf(10, 0, 3));
        assertEquals(List.of(1, 4, 7), SlotAssignment.clientIdsOf(10, 1, 3));
        assertEquals(List.of(2, 5, 8), SlotAssignment.clientIdsOf(10, 2, 3));
        assertEquals(List.of(), SlotAssignment.clientIdsOf(1, 1, 2));
    }

    @Test
    void slotsInterleaveAndCoverTheScheduleOnce() {
        assertArrayEquals(new int[] {0, 2, 4}, SlotAssignment.slotsOf(new int[] {3, 3}, 0));
        assertArrayEquals(new int[] {1, 3, 5}, SlotAssignment.slotsOf(new int[] {3, 3}, 1));
        // Uneven (a connection failed on agent 1): the others fill the tail.
        assertArrayEquals(new int[] {0, 3, 5, 6}, SlotAssignment.slotsOf(new int[] {4, 1, 2}, 0));
        assertArrayEquals(new int[] {1}, SlotAssignment.slotsOf(new int[] {4, 1, 2}, 1));
        assertArrayEquals(new int[] {2, 4}, SlotAssignment.slotsOf(new int[] {4, 1, 2}, 2));
        int[] open = {7, 5, 0, 6};
        List<Integer> all = new ArrayList<>();
        for (int a = 0; a < open.length; a++) {
            for (int s : SlotAssignment.slotsOf(open, a)) {
                all.add(s);
            }
        }
        Collections.sort(all);
        for (int i = 0; i < all.size(); i++) {
            assertEquals(i, all.get(i));
        }
        assertEquals(18, all.size());
    }
}
