package sockbench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The packages of the main sources form a DAG: a package that uses another is never used by it,
 * directly or through others, so each package can be read (and changed) knowing only those below it.
 * The graph comes from the sources' text: the package line, and every {@code sockbench.client.X.}
 * name in an import line or written out in the code.
 */
class PackageGraphTest {

    private static final Path MAIN = Path.of("src/main/java/sockbench/client");
    private static final Pattern PACKAGE = Pattern.compile("^package sockbench\\.client\\.([a-z0-9_]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bsockbench\\.client\\.([a-z0-9_]+)\\.");

    @Test
    void mainPackagesHaveNoCycle() throws IOException {
        Map<String, Map<String, Set<String>>> graph = graphOf(MAIN);
        assertTrue(graph.size() >= 10, "expected the client's packages under " + MAIN.toAbsolutePath() + ", found " + graph.keySet());
        List<String> cycle = findCycle(graph);
        if (!cycle.isEmpty()) {
            StringBuilder why = new StringBuilder("package cycle: " + String.join(" -> ", cycle) + "\n");
            for (int i = 0; i + 1 < cycle.size(); i++) {
                why.append("  ").append(cycle.get(i)).append(" -> ").append(cycle.get(i + 1)).append(" in ")
                        .append(graph.get(cycle.get(i)).get(cycle.get(i + 1))).append('\n');
            }
            fail(why.toString());
        }
    }

    @Test
    void theCycleFinderNamesACycleAndPassesADag() {
        Map<String, Map<String, Set<String>>> dag = new TreeMap<>();
        edge(dag, "cli", "sweep");
        edge(dag, "output", "sweep");
        edge(dag, "cli", "output");
        assertEquals(List.of(), findCycle(dag));

        edge(dag, "sweep", "plan");
        edge(dag, "plan", "output");
        List<String> cycle = findCycle(dag);
        assertFalse(cycle.isEmpty());
        assertEquals(cycle.get(0), cycle.get(cycle.size() - 1));
        assertTrue(cycle.containsAll(List.of("output", "sweep", "plan")), cycle.toString());
    }

    /** package -> used package -> the files that use it (a package's use of itself is left out). */
    static Map<String, Map<String, Set<String>>> graphOf(Path root) throws IOException {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Matcher pkg = PACKAGE.matcher(text);
            if (!pkg.find()) {
                continue; // the root package holds no source
            }
            String from = pkg.group(1);
            graph.computeIfAbsent(from, k -> new TreeMap<>());
            Matcher ref = REFERENCE.matcher(text.substring(pkg.end()));
            while (ref.find()) {
                if (!ref.group(1).equals(from)) {
                    graph.get(from).computeIfAbsent(ref.group(1), k -> new TreeSet<>())
                            .add(root.relativize(file).toString());
                }
            }
        }
        return graph;
    }

    /** One cycle as [a, b, ..., a], or empty when the graph is a DAG (depth-first search, grey/black marks). */
    static List<String> findCycle(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> state = new TreeMap<>(); // absent: unvisited, 1: on the path, 2: done
        List<String> path = new ArrayList<>();
        for (String start : graph.keySet()) {
            List<String> cycle = visit(start, graph, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Map<String, Set<String>>> graph,
                                      Map<String, Integer> state, List<String> path) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return List.of();
        }
        if (s != null && s == 1) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            cycle.add(node);
            return cycle;
        }
        state.put(node, 1);
        path.add(node);
        for (String next : graph.getOrDefault(node, Map.of()).keySet()) {
            List<String> cycle = visit(next, graph, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return List.of();
    }

    private static void edge(Map<String, Map<String, Set<String>>> graph, String from, String to) {
        graph.computeIfAbsent(from, k -> new TreeMap<>()).computeIfAbsent(to, k -> new TreeSet<>()).add(from + "/X.java");
    }
}
