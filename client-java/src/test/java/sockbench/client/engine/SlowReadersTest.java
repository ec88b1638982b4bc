package sockbench.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Which ids read slowly: id i when ceil((i + 1) x share) > ceil(i x share), so ids 0, 10, 20, ... for
 * 10 %, any first N ids hold ceil(N x share) of them (a small level still has one), and a level of
 * N >= 2 keeps a healthy session; and what {@code PCT%:KIB} accepts.
 */
class SlowReadersTest {

    @Test
    void tenPercentIsEveryTenthIdFromZero() {
        SlowReaders s = SlowReaders.parse("10%:64");
        assertTrue(s.active());
        assertEquals(List.of(0, 10, 20, 30), IntStream.range(0, 40).filter(s::contains).boxed().toList());
        assertEquals(65_536, s.bytesPerS());
        assertEquals("10%:64", s.spec());
    }

    @Test
    void anyFirstNIdsHoldTheCeilingOfTheShareAndKeepAHealthySession() {
        for (String spec : new String[] {"10%:64", "12.5%:8", "33%:1", "50%:1000000", "0.01%:1"}) {
            SlowReaders s = SlowReaders.parse(spec);
            for (int n = 1; n <= 1000; n++) {
                long count = IntStream.range(0, n).filter(s::contains).count();
                assertEquals(s.size(n), count, spec + " n=" + n);
                assertEquals((long) Math.ceil(n * s.pct() / 100 - 1e-9), count, spec + " n=" + n);
                if (n >= 2) {
                    assertTrue(count < n, spec + ": level " + n + " must keep a healthy session");
                }
            }
        }
        // the smoke profile's levels of 2 and 4 sessions get one slow reader each, not none
        assertEquals(1, SlowReaders.parse("10%:64").size(2));
        assertEquals(1, SlowReaders.parse("10%:64").size(4));
    }

    @Test
    void withAMixTheSlowIdsWouldAlignWithItsCycleWhichIsWhyMixesAreRefused() {
        // 80/20 is a cycle of 5 (4 websocket, 1 xhr-streaming) and 10 % is every 10th id: every slow
        // session would be a websocket one, never the share asked of each transport (RunCommand
        // refuses --slow-clients with HTTP transports for this).
        TransportMix mix = TransportMix.parse("websocket:80,xhr-streaming:20");
        SlowReaders s = SlowReaders.parse("10%:64");
        assertEquals(List.of(SessionTransport.WEBSOCKET),
                IntStream.range(0, 100).filter(s::contains).mapToObj(mix::transportOf).distinct().toList());
    }

    @Test
    void noneHasNoSlowSession() {
        assertFalse(SlowReaders.NONE.active());
        assertFalse(SlowReaders.NONE.contains(0));
        assertEquals(0, SlowReaders.NONE.size(1000));
    }

    @Test
    void theSpecsFormsAndItsRanges() {
        assertEquals("25%:1", SlowReaders.parse("25:1").spec(), "the % is optional");
        assertEquals("12.5%:64", SlowReaders.parse(" 12.5 % : 64 ").spec());
        assertEquals(50.0, SlowReaders.parse("50%:1000000").pct());
        for (String bad : new String[] {"", "10%", "10%:", ":64", "0%:64", "50.01%:64", "51%:64", "-5%:64", "10%:0",
                "10%:1000001", "10%:64k", "ten%:64", "10%:64:1", "10.123%:64", "1e1%:64"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SlowReaders.parse(bad), bad);
            assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> SlowReaders.parse(null));
    }
}
