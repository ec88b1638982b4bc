package main

// CPU accounting from outside, the way bench/ samples servers: /proc/PID/stat
// for a process (utime + stime), /proc/stat for the machine's steal time. The
// client's own CPU is read the same way from /proc/self/stat, so both figures
// share one method and one tick resolution.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// clockTicks is USER_HZ, the unit of /proc times. Go has no sysconf without
// cgo, so ask getconf once; 100 is the value on every mainstream Linux.
var clockTicks = func() float64 {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err == nil {
		if v, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && v > 0 {
			return float64(v)
		}
	}
	return 100
}()

// processCPUSeconds returns utime+stime of /proc/<pid>/stat ("self" for us), in seconds.
func processCPUSeconds(pid string) (float64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, err
	}
	return parseProcStatCPU(b)
}

// parseProcStatCPU reads fields 14 (utime) and 15 (stime) of a /proc/PID/stat
// line. The command name (field 2) may hold spaces and parentheses, so fields
// are counted from the last ')'.
func parseProcStatCPU(b []byte) (float64, error) {
	r := bytes.LastIndexByte(b, ')')
	if r < 0 {
		return 0, fmt.Errorf("/proc stat line without ')': %.60q", b)
	}
	f := strings.Fields(string(b[r+1:]))
	// f[0] is field 3 (state), so field 14 is f[11] and field 15 is f[12].
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat line with %d fields after the name", len(f))
	}
	ut, err1 := strconv.ParseUint(f[11], 10, 64)
	st, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc stat: bad utime/stime %q %q", f[11], f[12])
	}
	return float64(ut+st) / clockTicks, nil
}

// machineTicks returns the aggregate "cpu" line of /proc/stat: total ticks and steal ticks.
func machineTicks() (total, steal uint64, err error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0, fmt.Errorf("/proc/stat: unexpected first line %.80q", line)
	}
	// user nice system idle iowait irq softirq steal [guest guest_nice]: guest
	// time is already inside user, so only the first eight are summed.
	for i := 1; i <= 8; i++ {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/stat: bad field %q", f[i])
		}
		total += v
	}
	steal, _ = strconv.ParseUint(f[8], 10, 64)
	return total, steal, nil
}

// cpuSample is one reading of everything a point's CPU figures need.
type cpuSample struct {
	at           int64   // nowNs()
	self         float64 // our CPU seconds
	server       float64 // the server's CPU seconds (0 without --server-pid)
	total, steal uint64  // machine ticks
	err          error   // first read error, reported with the point
}

func takeCPUSample(serverPID string) cpuSample {
	s := cpuSample{at: nowNs()}
	s.self, s.err = processCPUSeconds("self")
	if serverPID != "" {
		var err error
		if s.server, err = processCPUSeconds(serverPID); err != nil && s.err == nil {
			s.err = fmt.Errorf("server pid %s: %w", serverPID, err)
		}
	}
	var err error
	if s.total, s.steal, err = machineTicks(); err != nil && s.err == nil {
		s.err = err
	}
	return s
}

// cpuPercents turns two samples into busy % of one core for us and the server,
// and the machine's steal % over the interval.
func cpuPercents(a, b cpuSample) (self, server, steal float64) {
	wall := float64(b.at-a.at) / 1e9
	if wall <= 0 {
		return 0, 0, 0
	}
	self = 100 * (b.self - a.self) / wall
	server = 100 * (b.server - a.server) / wall
	if dt := b.total - a.total; dt > 0 {
		steal = 100 * float64(b.steal-a.steal) / float64(dt)
	}
	return self, server, steal
}
