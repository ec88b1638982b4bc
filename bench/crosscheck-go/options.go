package main

// Command line: every flag documents its unit and valid range; a typo or an
// out-of-range value prints the usage and exits 2 (docs/protocol.md's rule).

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
)

type options struct {
	url            string
	wsBase         string // ws://127.0.0.1:PORT, derived from url
	levels         []int
	rates          []float64 // explicit points; empty = ramp
	startRate      float64
	factor         float64
	maxRate        float64
	warmup         float64
	window         float64
	drain          float64
	settle         float64
	connectTimeout float64
	size           int
	serverPID      string
}

// Limits that keep every loop and buffer bounded.
const (
	maxLevel      = 20000
	maxRate       = 10e6
	maxWindowMsgs = 20e6 // rate × window: one int64 RTT sample each at most
	maxRampPoints = 100
	maxSeconds    = 120
)

const usageHead = `usage: crosscheck-go --url http://127.0.0.1:PORT [--levels N,...]
         (--rates R,... | --start-rate R0 --factor F --max-rate RMAX) [options]

An independent load generator for the /broadcast SockJS app (framed websocket
transport): N connections send R messages/s in total on a fixed schedule, every
message is broadcast to all N, and each point prints received msgs/s, the RTT
of each connection's own copies from their scheduled send time, and CPU.

`

func parseOptions(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("crosscheck-go", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
	}
	var levels, rates string
	fs.StringVar(&o.url, "url", "", "server base URL as on its READY line; host must be 127.0.0.1 (required)")
	fs.StringVar(&levels, "levels", "100", "comma list of connection counts, each 1-20000")
	fs.StringVar(&rates, "rates", "", "comma list of total send rates in msgs/s (> 0, <= 1e7); run each, no ramp")
	fs.Float64Var(&o.startRate, "start-rate", 1000, "ramp: first total send rate, msgs/s (> 0)")
	fs.Float64Var(&o.factor, "factor", 1.25, "ramp: each rate is the previous × factor (1.01-10)")
	fs.Float64Var(&o.maxRate, "max-rate", 1e6, "ramp: highest rate tried, msgs/s (>= start-rate, <= 1e7)")
	fs.Float64Var(&o.warmup, "warmup", 1, "seconds of sending before each window, not measured (0-120)")
	fs.Float64Var(&o.window, "window", 5, "measured window per point, seconds (0.1-120)")
	fs.Float64Var(&o.drain, "drain", 2, "seconds to wait after the window for own copies still in flight (0.1-120)")
	fs.Float64Var(&o.settle, "settle", 0.5, "pause between points, seconds, so the server drops the closed sessions (0-120)")
	fs.Float64Var(&o.connectTimeout, "connect-timeout", 10, "seconds for the dials and again for the open frames of one point (0.1-120)")
	fs.IntVar(&o.size, "size", 64, "payload length in characters, padded with 'x' (1-65536; the header may make it longer)")
	fs.StringVar(&o.serverPID, "server-pid", "", "PID of the server process, to report its CPU from /proc/PID/stat (optional)")
	if err := fs.Parse(args); err != nil {
		return nil, err // flag has printed the message and the usage
	}
	err := o.check(fs, levels, rates)
	if err != nil {
		fmt.Fprintf(stderr, "crosscheck-go: %v\n\n", err)
		fs.Usage()
	}
	return o, err
}

func (o *options) check(fs *flag.FlagSet, levels, rates string) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.url == "" {
		return errors.New("--url is required")
	}
	u, err := url.Parse(o.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "ws") || u.Port() == "" || (u.Path != "" && u.Path != "/") {
		return fmt.Errorf("--url %q: want http://127.0.0.1:PORT", o.url)
	}
	if u.Hostname() != "127.0.0.1" {
		return fmt.Errorf("--url %q: load goes to 127.0.0.1 only", o.url)
	}
	o.wsBase = "ws://" + u.Host
	if o.levels, err = parseInts(levels, 1, maxLevel); err != nil {
		return fmt.Errorf("--levels: %v", err)
	}
	if rates != "" {
		if o.rates, err = parseFloats(rates, maxRate); err != nil {
			return fmt.Errorf("--rates: %v", err)
		}
	}
	switch {
	case !(o.startRate > 0 && o.startRate <= maxRate):
		return fmt.Errorf("--start-rate %g: want > 0 and <= %g", o.startRate, float64(maxRate))
	case !(o.maxRate >= o.startRate && o.maxRate <= maxRate):
		return fmt.Errorf("--max-rate %g: want >= --start-rate and <= %g", o.maxRate, float64(maxRate))
	case !(o.factor >= 1.01 && o.factor <= 10):
		return fmt.Errorf("--factor %g: want 1.01-10", o.factor)
	case !(o.warmup >= 0 && o.warmup <= maxSeconds):
		return fmt.Errorf("--warmup %g: want 0-%d s", o.warmup, maxSeconds)
	case !(o.window >= 0.1 && o.window <= maxSeconds):
		return fmt.Errorf("--window %g: want 0.1-%d s", o.window, maxSeconds)
	case !(o.drain >= 0.1 && o.drain <= maxSeconds):
		return fmt.Errorf("--drain %g: want 0.1-%d s", o.drain, maxSeconds)
	case !(o.settle >= 0 && o.settle <= maxSeconds):
		return fmt.Errorf("--settle %g: want 0-%d s", o.settle, maxSeconds)
	case !(o.connectTimeout >= 0.1 && o.connectTimeout <= maxSeconds):
		return fmt.Errorf("--connect-timeout %g: want 0.1-%d s", o.connectTimeout, maxSeconds)
	case o.size < 1 || o.size > 65536:
		return fmt.Errorf("--size %d: want 1-65536", o.size)
	}
	if o.serverPID != "" {
		if pid, err := strconv.Atoi(o.serverPID); err != nil || pid <= 0 {
			return fmt.Errorf("--server-pid %q: want a positive integer", o.serverPID)
		}
		if _, err := processCPUSeconds(o.serverPID); err != nil {
			return fmt.Errorf("--server-pid %s: %v", o.serverPID, err)
		}
	}
	top := o.maxRate
	for _, r := range o.rates {
		if r > top {
			top = r
		}
	}
	if top*o.window > maxWindowMsgs {
		return fmt.Errorf("rate × window = %g messages: want <= %g (shorten --window or lower the rates)", top*o.window, float64(maxWindowMsgs))
	}
	return nil
}

func parseInts(s string, lo, hi int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < lo || v > hi {
			return nil, fmt.Errorf("%q: want integers %d-%d", f, lo, hi)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseFloats(s string, hi float64) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0 && v <= hi) {
			return nil, fmt.Errorf("%q: want numbers > 0 and <= %g", f, hi)
		}
		out = append(out, v)
	}
	return out, nil
}
