package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

class LevelSessionsTest {

    private final ConnectionTest.Recorder events = new ConnectionTest.Recorder();

    private Connection connection(int clientId) {
        return new WsConnection(events, Transport.SOCKJS, clientId, null, false);
    }

    private LevelSessions sessionsOf(int... clientIds) {
        LevelSessions sessions = new LevelSessions();
        for (int id : clientIds) {
            sessions.add(connection(id));
        }
        return sessions;
    }

    @Test
    void aChurnReplacementTakesTheReplacedSessionsPlaceAndKeepsTheOrder() {
        LevelSessions sessions = sessionsOf(0, 2, 4, 6, 8);
        Connection fresh = connection(6);
        sessions.replace(fresh);
        assertSame(fresh, sessions.inOrder().get(3));
        assertEquals(List.of(0, 2, 4, 6, 8), sessions.inOrder().stream().map(c -> c.clientId).toList());
    }

    @Test
    void aReplacementWithAnUnknownClientIdChangesNothing() {
        LevelSessions sessions = sessionsOf(0, 2, 4);
        List<Connection> before = List.copyOf(sessions.inOrder());
        sessions.replace(connection(3));
        assertEquals(before, sessions.inOrder());
    }

    @Test
    void countsLeaveOutClosedSessionsAndTheSteadyCountLeavesOutTheChurnPool() {
        LevelSessions sessions = sessionsOf(1, 2, 3, 4);
        sessions.inOrder().get(0).failOpen("refused");
        sessions.inOrder().get(1).churnPool = true;
        assertEquals(3, sessions.openCount());
        assertEquals(2, sessions.steadyOpenCount());
        // None finished its handshake: none takes part in a point yet.
        assertEquals(List.of(), sessions.openClientIds());
    }

    @Test
    void slowReadersAreCountedApartAndTakeNoScheduleSlot() {
        LevelSessions sessions = sessionsOf(0, 1, 2, 3);
        for (Connection c : sessions.inOrder()) {
            c.state = Connection.State.OPEN;
        }
        sessions.inOrder().get(0).slowReader = true;
        sessions.inOrder().get(2).slowReader = true;
        assertEquals(4, sessions.openCount());
        assertEquals(2, sessions.steadyOpenCount());
        assertEquals(2, sessions.slowOpenCount());
        assertEquals(List.of(1, 3), sessions.openClientIds(), "slow readers never send");
        sessions.inOrder().get(0).lost("cut off");
        assertEquals(1, sessions.slowOpenCount());
    }

    @Test
    void clearForgetsThePreviousLevel() {
        LevelSessions sessions = sessionsOf(1, 2);
        sessions.clear();
        assertEquals(0, sessions.openCount());
        assertEquals(List.of(), sessions.inOrder());
    }
}
