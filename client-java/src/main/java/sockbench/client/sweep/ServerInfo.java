package sockbench.client.sweep;

import java.util.List;
import java.util.Map;

/**
 * The server under test as recorded in results ({@code server}).
 *
 * @param name           implementation, e.g. {@code sockbench-tornado}
 * @param peer           true for a third-party reference implementation
 * @param runtime        {@code cpython}, {@code pypy}, {@code node}
 * @param runtimeVersion from the READY line
 * @param codec          JSON library, or null where not selectable
 * @param mode           {@code fast}/{@code naive}, or null
 * @param url            SockJS app URL the client used
 * @param pid            server process id, or null
 * @param cpus           CPUs the server may run on (from /proc/PID/status), empty if unknown
 * @param ready          every key=value of the READY line
 */
public record ServerInfo(String name, boolean peer, String runtime, String runtimeVersion, String codec,
                         String mode, String url, Long pid, List<Integer> cpus, Map<String, String> ready) {
}
