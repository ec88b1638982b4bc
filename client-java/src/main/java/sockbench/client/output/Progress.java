package sockbench.client.output;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import sockbench.client.plan.SweepPlan;
import sockbench.client.stats.PointResult;
import sockbench.client.stats.SaturationPoint;
import sockbench.client.sweep.LevelStart;
import sockbench.client.sweep.SweepProgress;

/**
 * Progress on stderr during a sweep: one line per point (level, rate, received/s, mean/p99 RTT,
 * state) and an estimate of the time left for the whole sweep.
 *
 * <p>The ETA assumes each remaining level overloads at about the received rate the server has
 * shown so far (throughput in received messages/s is roughly independent of N), so it is
 * rough for the first level and improves as the sweep goes.
 */
public final class Progress implements SweepProgress {

    private final PrintStream err;
    private SweepPlan plan;
    private int levelIndex = -1;
    private long startNs;
    /** Highest received/s at which a point overloaded, or the highest seen so far if none did. */
    private double capacityEstimate;
    private boolean capacityFromOverload;
    private String pendingDiagnostics = "";
    private int searchPoints;
    /**
     * Each level's cap, sent msgs/s: the client's measured ceiling ÷ N since the ceilings replaced the
     * profile's max rate, so the ETA's walk up the ramp must stop there, not at max_rate.
     */
    private java.util.function.IntToDoubleFunction levelCap;
    /** "agents C/E" appended to point lines of a fleet run; empty for one process. */
    private String agents = "";

    public Progress(PrintStream err) {
        this.err = err;
    }

    public void sweepStarted(SweepPlan p) {
        sweepStarted(p, 0, n -> p.maxRate());
    }

    /**
     * @param searchPoints points a level measures after its ramp ends (confirm + refine steps), for the ETA
     * @param levelCap     where level n's climb ends if the server never gets there (the ETA's upper end)
     */
    @Override
    public void sweepStarted(SweepPlan p, int searchPoints, java.util.function.IntToDoubleFunction levelCap) {
        this.plan = p;
        this.levelCap = levelCap;
        this.searchPoints = searchPoints;
        this.startNs = System.nanoTime();
        err.printf(Locale.ROOT, "sockbench: profile %s, levels %s, %s ramp from %.1f msg/s%n",
                p.profile(), p.levels(), p.ramp().jsonName(), p.startRate());
    }

    @Override
    public void levelConnected(int n, int connected, int failed, double seconds) {
        levelIndex++;
        err.printf(Locale.ROOT, "level %d: %d connected, %d failed, in %.1f s%n", n, connected, failed, seconds);
    }

    @Override
    public void idleHold(int n, double seconds) {
        err.printf(Locale.ROOT, "level %d: holding the sessions idle for %.0f s (memory, idle CPU, heartbeats)%n", n, seconds);
    }

    /** Says where the level's ramp starts when that is not the profile's start rate. */
    @Override
    public void levelStart(int n, double start, double profileStart) {
        if (start != profileStart) {
            err.printf(Locale.ROOT, "level %d: ramp starts at %.1f msg/s (profile start %.1f)%n", n, start, profileStart);
        }
    }

    /** Agents connected / expected, shown on every point line ("" = one process, nothing shown). */
    @Override
    public void agents(String status) {
        agents = status == null || status.isEmpty() ? "" : "  " + status;
    }

    @Override
    public void point(int n, PointResult p, SweepPlan sweepPlan) {
        if (p.state().name().equals("OVERLOADED")) {
            capacityEstimate = capacityFromOverload ? Math.max(capacityEstimate, p.receivedPerS()) : p.receivedPerS();
            capacityFromOverload = true;
        } else if (!capacityFromOverload) {
            capacityEstimate = Math.max(capacityEstimate, p.receivedPerS());
        }
        // All-copies points are judged by every copy: show that p99 (and the last copy's) beside the own RTT.
        String fanout = p.fanout() == null ? "" : String.format(Locale.ROOT, "  all-copies p99 %s ms, completion p99 %s ms",
                fmt(p.fanout().p99()), p.completion() == null ? "-" : fmt(p.completion().p99()));
        // A churn run: the connects/s the server served against those asked, and how long a reconnect took.
        if (p.churn() != null) {
            fanout += String.format(Locale.ROOT, ", churn %.1f of %d connects/s, reconnect p99 %s ms%s",
                    p.churn().connectsPerS(), p.churn().pool(), fmt(p.churn().reconnectMs().p99()),
                    p.churn().failed() > 0 ? ", " + p.churn().failed() + " failed" : "");
        }
        // Slow readers: how far behind they were and how many the server cut off (never the verdict).
        if (p.slowClients() != null) {
            fanout += String.format(Locale.ROOT, ", slow readers %d, behind p99 %s ms, %d cut off",
                    p.slowClients().sessions(), fmt(p.slowClients().fanoutMs().p99()), p.slowClients().lostSessions());
        }
        err.printf(Locale.ROOT, "  N=%-5d %-7s rate %9.1f/s  sent %9.1f/s  recv %10.0f/s  rtt mean %s p99 %s ms%s  %-10s%s%s%s%s%s  ETA %s%n",
                n, p.phase().jsonName(), p.targetRate(), p.sentPerS(), p.receivedPerS(), fmt(p.rtt().mean()),
                fmt(p.rtt().p99()), fanout, p.state().jsonName(), p.okStrict() ? " strict-ok" : "",
                p.backlogGrowing() ? " BACKLOG-GROWING" : "",
                p.clientBound() ? " CLIENT-BOUND" + p.clientBoundReasons() : "",
                p.agentLost() != null ? " AGENT-LOST[" + p.agentLost() + "]" : "", pendingDiagnostics + agents,
                eta(n, p.targetRate()));
        pendingDiagnostics = "";
    }

    /**
     * Client-side efficiency of the point about to be reported, appended to its line: messages
     * per read syscall shows whether the client batches reads (≈1 means one syscall per message).
     */
    @Override
    public void diagnostics(double messagesPerRead) {
        pendingDiagnostics = String.format(Locale.ROOT, "  %.1f msg/read", messagesPerRead);
    }

    @Override
    public void levelDone(int n, SaturationPoint sat, SaturationPoint strict, String endReason) {
        err.printf(Locale.ROOT, "level %d done (%s): saturation %s; strict %s%n", n, endReason,
                describe(sat, "no ok point"), describe(strict, "no strictly ok point"));
    }

    private static String describe(SaturationPoint sat, String none) {
        if (sat == null) {
            return "none (" + none + ")";
        }
        Double grid = sat.gridErrorPct();
        return String.format(Locale.ROOT, "%.0f received/s at %.1f sent/s, mean %.1f ms%s%s",
                sat.receivedPerS(), sat.sentPerS(), sat.rttMeanMs(),
                grid == null ? "" : String.format(Locale.ROOT, ", knee within +%.1f %%", grid),
                sat.clientBound() ? " (client-bound!)" : "");
    }

    public void warnings(List<String> warnings, boolean anyClientBound) {
        if (anyClientBound) {
            err.println("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
            err.println("!! WARNING: some points are CLIENT-BOUND: they measure this load generator, not the");
            err.println("!! server. Give the client more cores (CLIENT_CPU) or treat those points as invalid.");
            err.println("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
        }
        for (String w : warnings) {
            err.println("warning: " + w);
        }
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }

    /** Seconds left, estimated; formatted m:ss. */
    private String eta(int currentN, double currentRate) {
        double pointS = plan.warmupS() + plan.stepS() + plan.settleS() + 0.1;
        double capacity = Math.max(capacityEstimate, 1);
        double guess = capacityFromOverload ? capacity : capacity * 2;
        double seconds = 0;
        List<Integer> levels = plan.levels();
        for (int i = Math.max(0, levelIndex); i < levels.size(); i++) {
            int n = levels.get(i);
            double lastRate = guess / n;
            long points = 0;
            // Walk the ramp lazily: a legacy level at N = 2000 has a million rates below its cap.
            // Later levels start where the adaptive rule would put them for this capacity (given
            // --level-start-rates are not known here: the estimate stays on the safe side).
            double r = i == levelIndex ? plan.nextRate(currentRate, n)
                    : LevelStart.adaptive(plan, n, capacityFromOverload ? capacity : null);
            double cap = levelCap.applyAsDouble(n);
            for (; r <= cap && points < 100_000; r = plan.nextRate(r, n)) {
                points++;
                if (r > lastRate) {
                    break;
                }
            }
            seconds += points * pointS + (i == levelIndex ? 0 : 1 + plan.settleS() + searchPoints * (pointS + 1));
        }
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "~%d:%02d (elapsed %d s)", s / 60, s % 60,
                (System.nanoTime() - startNs) / 1_000_000_000L);
    }
}
