package sockbench.client.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Ways to cut one byte stream into the reads a socket might deliver. Each piece is copied into
 * an array of its own with junk bytes around it and fed with {@code start > 0}, as a read buffer
 * would be, so a decoder that strays outside its {@code [start, end)} range reads junk.
 */
final class Feeds {

    private Feeds() {
    }

    /** A consumer of {@code (array, start, end)}. */
    interface Sink {
        void feed(byte[] b, int start, int end);
    }

    private static final byte JUNK = '#';

    /** Feeds {@code b[from, to)} as one read in a padded array of its own. */
    static void piece(byte[] b, int from, int to, Sink sink) {
        int pad = 3;
        byte[] a = new byte[to - from + 2 * pad];
        Arrays.fill(a, JUNK);
        System.arraycopy(b, from, a, pad, to - from);
        sink.feed(a, pad, pad + (to - from));
    }

    /** The whole stream as one read. */
    static void whole(byte[] b, Sink sink) {
        piece(b, 0, b.length, sink);
    }

    /** Two reads, split before byte {@code at} (0 and length give one empty read). */
    static void splitAt(byte[] b, int at, Sink sink) {
        piece(b, 0, at, sink);
        piece(b, at, b.length, sink);
    }

    /** One read per byte. */
    static void byteByByte(byte[] b, Sink sink) {
        for (int i = 0; i < b.length; i++) {
            piece(b, i, i + 1, sink);
        }
    }

    /** Reads of {@code size} bytes each (the last shorter). */
    static void inPiecesOf(byte[] b, int size, Sink sink) {
        for (int i = 0; i < b.length; i += size) {
            piece(b, i, Math.min(b.length, i + size), sink);
        }
    }

    /**
     * The split positions to try for a stream: every position when it is at most {@code every}
     * bytes long; otherwise every position within {@code window} bytes of each line feed and CR of
     * {@code marks} (chunk and response boundaries), plus every {@code stride}-th position, so a
     * 128 KiB stream is tried at its interesting places without n² work.
     */
    static int[] positions(byte[] b, int every, int window, int stride, byte[] marks) {
        if (b.length <= every) {
            int[] all = new int[b.length + 1];
            for (int i = 0; i <= b.length; i++) {
                all[i] = i;
            }
            return all;
        }
        boolean[] take = new boolean[b.length + 1];
        for (int i = 0; i <= b.length; i += stride) {
            take[i] = true;
        }
        take[b.length] = true;
        for (int i = 0; i < b.length; i++) {
            for (byte m : marks) {
                if (b[i] == m) {
                    for (int j = Math.max(0, i - window); j <= Math.min(b.length, i + window); j++) {
                        take[j] = true;
                    }
                }
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i <= b.length; i++) {
            if (take[i]) {
                out.add(i);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
