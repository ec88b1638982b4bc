// Command crosscheck-go is an independent load generator for sockbench's
// /broadcast SockJS app, written against a different WebSocket library
// (gorilla/websocket) and runtime than client-java, so that a saturation figure
// can be checked by a second tool: if both find the same knee with the server's
// core full, the figure is the server's; if this one finds a higher one, the
// Java client was the limit. See README.md for the measurement model.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	o, err := parseOptions(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		os.Exit(2)
	}
	os.Exit(run(o))
}

const header = "%-6s %10s %10s %12s %8s %8s %9s %9s %8s %8s %6s  %s\n"
const row = "%-6d %10.0f %10.0f %12.0f %7.1f%% %7.1f%% %9.2f %9.2f %7.0f%% %8s %5.1f%%  %s\n"

func run(o *options) int {
	fmt.Printf(header, "level", "rate/s", "sent/s", "received/s", "recv/exp", "own_back",
		"mean_ms", "p99_ms", "client", "server", "steal", "verdict")
	status := 0
	for i, level := range o.levels {
		if i > 0 {
			time.Sleep(time.Duration(o.settle * 1e9))
		}
		if len(o.rates) > 0 {
			for j, r := range o.rates {
				if j > 0 {
					time.Sleep(time.Duration(o.settle * 1e9))
				}
				res := runPoint(o, level, r)
				printRow(&res)
				if res.err != nil {
					status = 1
				}
			}
			continue
		}
		if ramp(o, level) != nil {
			status = 1
		}
	}
	return status
}

// ramp runs rates startRate × factor^k up to maxRate and stops at the first
// saturated point; the saturation is the received msgs/s of the last ok point.
// Its grid error is up to one factor step (25 % at 1.25): the knee lies between
// the last ok rate and the first saturated one.
func ramp(o *options, level int) error {
	var lastOK *pointResult
	var stop *pointResult
	rate := o.startRate
	for k := 0; k < maxRampPoints && rate <= o.maxRate*(1+1e-9); k++ {
		if k > 0 {
			time.Sleep(time.Duration(o.settle * 1e9))
		}
		res := runPoint(o, level, rate)
		printRow(&res)
		if res.saturated() {
			stop = &res
			break
		}
		lastOK = &res
		rate *= o.factor
	}
	switch {
	case lastOK == nil && stop != nil && stop.err != nil:
		fmt.Printf("saturation level=%d not measured: the first point failed (see stderr)\n", level)
	case lastOK == nil:
		fmt.Printf("saturation level=%d below the first rate %.0f msgs/s (lower --start-rate)\n", level, o.startRate)
	default:
		note := ""
		if stop == nil {
			note = " floor: max-rate reached before saturation"
		} else if lastOK.clientBound() {
			note = " floor: client-bound"
		} else if o.serverPID != "" && lastOK.serverCPU < 95 {
			// The fairness rule: a figure is the server's only when its core was full.
			note = " floor: server core < 95 % busy (contention on its core?)"
		}
		if stop != nil && stop.err != nil {
			note += " (the next point failed, see stderr)"
		}
		fmt.Printf("saturation level=%d received/s=%.0f rate=%.0f server_cpu=%.0f%% client_cpu=%.0f%%%s\n",
			level, lastOK.receivedPerS, lastOK.rate, lastOK.serverCPU, lastOK.clientCPU, note)
	}
	if stop != nil && stop.err != nil {
		return stop.err
	}
	return nil
}

func printRow(r *pointResult) {
	server := "-"
	if r.serverCPU > 0 {
		server = fmt.Sprintf("%.0f%%", r.serverCPU)
	}
	ratio := 0.0
	if r.expectedPerS > 0 {
		ratio = 100 * r.receivedPerS / r.expectedPerS
	}
	fmt.Printf(row, r.level, r.rate, r.sentPerS, r.receivedPerS, ratio, r.deliveredPct,
		r.meanMs, r.p99Ms, r.clientCPU, server, r.stealPct, r.verdict())
	if r.err != nil {
		fmt.Fprintf(os.Stderr, "crosscheck-go: level %d rate %.0f: %v\n", r.level, r.rate, r.err)
	}
	if r.stealPct > 5 {
		fmt.Fprintf(os.Stderr, "crosscheck-go: warning: hypervisor steal %.1f%% during level %d rate %.0f\n", r.stealPct, r.level, r.rate)
	}
}
