package sockbench.client.bench;

import java.util.List;

/**
 * The load generator as recorded in results ({@code client}).
 *
 * @param name         always {@code sockbench-client-java}
 * @param version      client version
 * @param jvmVersion   {@code java.version}
 * @param jvmVendor    {@code java.vendor}
 * @param transport    {@code sockjs} or {@code raw}
 * @param cpus         CPUs the client process may run on
 * @param ioThreads    I/O threads driving the connections
 * @param maxHeapBytes JVM max heap, bytes
 */
public record ClientInfo(String name, String version, String jvmVersion, String jvmVendor, String transport,
                         List<Integer> cpus, int ioThreads, long maxHeapBytes) {
    public static final String NAME = "sockbench-client-java";
    public static final String VERSION = "1.1.0";
}
