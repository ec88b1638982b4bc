package sockbench.client.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import sockbench.client.sweep.RunResult;

/** Writes a run in one file format. */
public interface ResultWriter {

    /** Writes {@code result} to {@code out} (the whole file). */
    void write(RunResult result, java.io.Writer out) throws IOException;

    /**
     * Writes to {@code path} atomically (temporary file, then rename), so a reader never sees a
     * half-written file and a partial result written after each level survives a crash.
     */
    default void writeFile(RunResult result, Path path) throws IOException {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (var w = Files.newBufferedWriter(tmp)) {
            write(result, w);
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
