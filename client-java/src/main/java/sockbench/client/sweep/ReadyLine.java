package sockbench.client.sweep;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The server's {@code READY <base-url> key=value ...} line (docs/protocol.md §2).
 *
 * @param baseUrl the URL after {@code READY}
 * @param values  every key=value token, in order, verbatim
 */
public record ReadyLine(String baseUrl, Map<String, String> values) {

    /**
     * @throws IllegalArgumentException if the line does not start with {@code READY } or a token is not key=value
     */
    public static ReadyLine parse(String line) {
        String trimmed = line.strip();
        if (!trimmed.startsWith("READY ")) {
            throw new IllegalArgumentException("a READY line starts with 'READY ': " + line);
        }
        String[] tokens = trimmed.substring(6).trim().split(" +");
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("READY token is not key=value: " + tokens[i]);
            }
            values.put(tokens[i].substring(0, eq), tokens[i].substring(eq + 1));
        }
        return new ReadyLine(tokens[0], java.util.Collections.unmodifiableMap(values));
    }

    public String get(String key) {
        return values.get(key);
    }
}
