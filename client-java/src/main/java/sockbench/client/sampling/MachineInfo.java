package sockbench.client.sampling;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the run happened: from {@code /proc/cpuinfo}, {@code /proc/meminfo},
 * {@code /proc/sys/kernel/osrelease} (= {@code uname -r}) and {@code /etc/os-release}.
 *
 * @param hostname    host name
 * @param cpuModel    {@code model name} of the first CPU
 * @param cores       online logical CPUs
 * @param kernel      kernel release
 * @param memoryBytes {@code MemTotal}, bytes
 * @param os          {@code PRETTY_NAME}
 */
public record MachineInfo(String hostname, String cpuModel, int cores, String kernel, long memoryBytes, String os) {

    public static MachineInfo read() {
        // The kernel's name, not a DNS lookup (which can stall on a misconfigured resolver).
        String host = readOr("/proc/sys/kernel/hostname", "").trim();
        if (host.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "unknown";
            }
        }
        String model = "unknown";
        for (String line : readOr("/proc/cpuinfo", "").split("\n")) {
            if (line.startsWith("model name")) {
                model = line.substring(line.indexOf(':') + 1).trim();
                break;
            }
        }
        long mem = 0;
        for (String line : readOr("/proc/meminfo", "").split("\n")) {
            if (line.startsWith("MemTotal:")) {
                mem = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        String os = "unknown";
        for (String line : readOr("/etc/os-release", "").split("\n")) {
            if (line.startsWith("PRETTY_NAME=")) {
                os = line.substring("PRETTY_NAME=".length()).replace("\"", "").trim();
            }
        }
        String kernel = readOr("/proc/sys/kernel/osrelease", System.getProperty("os.version")).trim();
        return new MachineInfo(host, model, onlineCpus(), kernel, mem, os);
    }

    private static int onlineCpus() {
        String online = readOr("/sys/devices/system/cpu/online", "").trim();
        if (!online.isEmpty()) {
            try {
                return Math.max(1, CpuList.parse(online).size());
            } catch (RuntimeException e) {
                // fall through
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    private static String readOr(String path, String fallback) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return fallback;
        }
    }
}
