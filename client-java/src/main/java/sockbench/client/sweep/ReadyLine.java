package sockbench.client.sweep;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The server's {@code READY <base-url> key=value ...} line (docs/protocol.md §2): the one Java
 * parser of it. The grammar is the contract's, the same as the Python parser's
 * (docs/contract/sockbench_contract/ready_line.py); both are tested against
 * docs/contract/ready-line-cases.json.
 *
 * @param baseUrl the URL after {@code READY}: {@code http://<host>:<port>}, no path
 * @param values  every key=value token, in order, verbatim
 */
public record ReadyLine(String baseUrl, Map<String, String> values) {

    /** {@code http://<host>:<port>}, no path, no trailing slash (IPv6 hosts bracketed). */
    static final Pattern BASE_URL = Pattern.compile("^http://[^/\\s]+:\\d+$",
            Pattern.UNIX_LINES | Pattern.UNICODE_CHARACTER_CLASS);
    /** What a key may be; a value is any non-empty run of non-space characters. */
    static final Pattern KEY = Pattern.compile("^[a-z0-9_.-]+$", Pattern.UNIX_LINES);

    /**
     * Splits {@code READY <url> k=v k=v}; the line may end in a newline. Tokens are separated by
     * single spaces: a doubled or trailing space makes an empty token, which is rejected.
     *
     * @throws IllegalArgumentException if the line is not a READY line by that grammar
     */
    public static ReadyLine parse(String line) {
        String text = stripLineEnd(line);
        if (!text.startsWith("READY ")) {
            throw new IllegalArgumentException("not a READY line: " + text);
        }
        String[] tokens = text.substring("READY ".length()).split(" ", -1);
        if (!BASE_URL.matcher(tokens[0]).find()) {
            throw new IllegalArgumentException("bad base url '" + tokens[0] + "' in READY line");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            if (eq < 0 || !KEY.matcher(tokens[i].substring(0, eq)).find() || eq == tokens[i].length() - 1) {
                throw new IllegalArgumentException("bad key=value token '" + tokens[i] + "' in READY line");
            }
            values.put(tokens[i].substring(0, eq), tokens[i].substring(eq + 1));
        }
        return new ReadyLine(tokens[0], Collections.unmodifiableMap(values));
    }

    public String get(String key) {
        return values.get(key);
    }

    private static String stripLineEnd(String line) {
        int end = line.length();
        while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
            end--;
        }
        return line.substring(0, end);
    }
}
