package main

import "time"

// origin is the process's clock origin. time.Since reads Go's monotonic clock,
// so nowNs never jumps with wall-clock changes (NTP, suspend).
var origin = time.Now()

// nowNs is monotonic nanoseconds since origin; payloads carry times on this clock.
func nowNs() int64 { return int64(time.Since(origin)) }

// sleepUntil sleeps until nowNs() >= t (returns at once if that is past).
func sleepUntil(t int64) {
	if d := t - nowNs(); d > 0 {
		time.Sleep(time.Duration(d))
	}
}
