package sockbench.client.fleet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * An int array as one stream field: little-endian ints, deflated, base64. The per-message arrays
 * of an all-copies point (up to 262,144 ints) are mostly the same few values (every message got
 * every copy), so deflate shrinks a megabyte to kilobytes on the bus.
 */
final class IntArrays {

    private IntArrays() {
    }

    static String encode(int[] values) {
        ByteBuffer raw = ByteBuffer.allocate(4 + values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.putInt(values.length);
        for (int v : values) {
            raw.putInt(v);
        }
        Deflater d = new Deflater(Deflater.BEST_SPEED);
        try {
            d.setInput(raw.array());
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[64 * 1024];
            while (!d.finished()) {
                out.write(chunk, 0, d.deflate(chunk));
            }
            return Base64.getEncoder().encodeToString(out.toByteArray());
        } finally {
            d.end();
        }
    }

    /** @throws IllegalArgumentException when the text is not an encoded array */
    static int[] decode(String base64) {
        Inflater inf = new Inflater();
        try {
            inf.setInput(Base64.getDecoder().decode(base64));
            byte[] head = new byte[4];
            if (inf.inflate(head) != 4) {
                throw new IllegalArgumentException("int array field too short");
            }
            int n = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if (n < 0 || n > (1 << 26)) {
                throw new IllegalArgumentException("int array length out of range: " + n);
            }
            byte[] body = new byte[n * 4];
            int got = 0;
            while (got < body.length) {
                int k = inf.inflate(body, got, body.length - got);
                if (k == 0 && (inf.finished() || inf.needsInput())) {
                    break;
                }
                got += k;
            }
            if (got != body.length) {
                throw new IllegalArgumentException("int array field holds " + got / 4 + " of " + n + " values");
            }
            int[] out = new int[n];
            ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
            return out;
        } catch (DataFormatException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("not a deflated int array: " + e.getMessage(), e);
        } finally {
            inf.end();
        }
    }
}
