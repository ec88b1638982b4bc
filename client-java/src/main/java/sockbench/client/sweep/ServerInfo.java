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

    /** The server with every field set by name; unset: false, null or empty. */
    public static Builder builder() {
        return new Builder();
    }

    /** Named steps for {@link ServerInfo}; the field meanings are the record's. */
    public static final class Builder {
        private String name;
        private boolean peer;
        private String runtime;
        private String runtimeVersion;
        private String codec;
        private String mode;
        private String url;
        private Long pid;
        private List<Integer> cpus = List.of();
        private Map<String, String> ready = Map.of();

        private Builder() {
        }

        public Builder name(String value) {
            this.name = value;
            return this;
        }

        public Builder peer(boolean value) {
            this.peer = value;
            return this;
        }

        public Builder runtime(String value) {
            this.runtime = value;
            return this;
        }

        public Builder runtimeVersion(String value) {
            this.runtimeVersion = value;
            return this;
        }

        public Builder codec(String value) {
            this.codec = value;
            return this;
        }

        public Builder mode(String value) {
            this.mode = value;
            return this;
        }

        public Builder url(String value) {
            this.url = value;
            return this;
        }

        public Builder pid(Long value) {
            this.pid = value;
            return this;
        }

        public Builder cpus(List<Integer> value) {
            this.cpus = value;
            return this;
        }

        public Builder ready(Map<String, String> value) {
            this.ready = value;
            return this;
        }

        public ServerInfo build() {
            return new ServerInfo(name, peer, runtime, runtimeVersion, codec, mode, url, pid, cpus, ready);
        }
    }
}
