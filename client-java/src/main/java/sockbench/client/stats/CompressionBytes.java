package sockbench.client.stats;

/**
 * What compression did to a point's reads ({@code --compression permessage-deflate};
 * results/README.md {@code levels[].points[].compression}): the bytes the client read from its
 * sockets while the point ran (frame headers and compressed payloads) against what the compressed
 * messages among them inflated to. Inflated / read is the ratio the sessions saw.
 *
 * @param bytesRead     bytes read from the sockets while the point ran, ≥ 0
 * @param bytesInflated bytes the compressed messages of those reads inflated to, ≥ 0
 */
public record CompressionBytes(long bytesRead, long bytesInflated) {

    public CompressionBytes {
        if (bytesRead < 0 || bytesInflated < 0) {
            throw new IllegalArgumentException("byte counts must be >= 0");
        }
    }
}
