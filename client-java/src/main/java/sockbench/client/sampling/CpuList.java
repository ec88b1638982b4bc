package sockbench.client.sampling;

import java.util.ArrayList;
import java.util.List;

/** Linux CPU list syntax ({@code 0-3,8,10-11}), as in {@code Cpus_allowed_list}. */
public final class CpuList {

    private CpuList() {
    }

    /** Parses a CPU list; an empty or blank string gives an empty list. */
    public static List<Integer> parse(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.trim().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] range = part.trim().split("-");
            int from = Integer.parseInt(range[0].trim());
            int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
            if (range.length > 2 || to < from) {
                throw new IllegalArgumentException("bad CPU list: " + list);
            }
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }
}
