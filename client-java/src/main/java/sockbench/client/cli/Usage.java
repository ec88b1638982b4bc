package sockbench.client.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Usage errors of every command, one way: a bad option value becomes a picocli
 * {@link ParameterException}, which Main prints with the usage and turns into exit status 2.
 */
final class Usage {

    private Usage() {
    }

    /** A usage error unless {@code ok}. */
    static void require(CommandSpec spec, boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /**
     * The value {@code parse} returns; its IllegalArgumentException becomes a usage error that starts
     * with {@code option} ("--bus: ...", or the bare message when option is null).
     */
    static <T> T parse(CommandSpec spec, String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option == null ? e.getMessage() : option + ": " + e.getMessage());
        }
    }

    /** The constant of {@code type} named {@code value} in any case; a usage error listing the names otherwise. */
    static <E extends Enum<E>> E parseEnum(CommandSpec spec, Class<E> type, String value, String option) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>();
            for (E c : type.getEnumConstants()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            throw new ParameterException(spec.commandLine(), option + ": '" + value + "' is not one of " + names);
        }
    }
}
