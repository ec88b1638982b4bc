package main

// One measured point: N fresh connections, a warm-up, a window of T seconds at
// a fixed total send rate, a bounded drain for the window's own copies, close.
// Fresh connections per point keep a previous point's backlog out of this one.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// pointResult is one output row.
type pointResult struct {
	level         int
	rate          float64 // target send rate, msgs/s, all connections
	sentPerS      float64 // window messages actually written / window
	receivedPerS  float64 // every message arriving during the window / window
	expectedPerS  float64 // rate × level: what a keeping-up server delivers
	deliveredPct  float64 // own copies of window messages back before the drain ended, % of scheduled
	meanMs, p99Ms float64 // RTT of own copies from the scheduled send time
	samples       int
	clientCPU     float64 // % of one core, over the window
	serverCPU     float64 // % of one core, over the window (0 without --server-pid)
	stealPct      float64
	err           error
}

// saturated is the stop rule: mean RTT >= 200 ms, or so many own copies
// missing that the mean (of those that came back) no longer describes the point.
func (r *pointResult) saturated() bool {
	return r.err != nil || r.meanMs >= 200 || r.deliveredPct < 97
}

// clientBound says the figure may be the client's limit, not the server's:
// our core nearly full, or we could not send at the scheduled rate.
func (r *pointResult) clientBound() bool {
	return r.clientCPU >= 95 || r.sentPerS < 0.95*r.rate
}

func (r *pointResult) verdict() string {
	if r.err != nil {
		return "error"
	}
	v := "ok"
	switch {
	case r.meanMs >= 200:
		v = "saturated"
	case r.deliveredPct < 97:
		v = "lost"
	}
	if r.clientBound() {
		v += ",client-bound"
	}
	return v
}

var pointSeq int64 // point counter for payload epochs; points run one at a time

func runPoint(o *options, level int, rate float64) pointResult {
	res := pointResult{level: level, rate: rate, expectedPerS: rate * float64(level)}
	pointSeq++
	// The plan is fixed before connecting, relative to start 0, so each reader
	// gets its epoch and sample buffer before it runs (dueNs shifts exactly
	// with startNs, so the counts do not change when the start is set below).
	s := &schedule{
		rate:        rate,
		connections: int64(level),
		point:       pointSeq,
		size:        o.size,
	}
	s.warmEndNs = int64(o.warmup * 1e9)
	s.endNs = s.warmEndNs + int64(o.window*1e9)
	conns, err := connectAll(o, s)
	defer closeAll(conns)
	if err != nil {
		res.err = err
		return res
	}
	var expectedOwn int64
	for _, c := range conns {
		expectedOwn += int64(cap(c.rttNs))
	}
	shift := nowNs() + int64(50*time.Millisecond)
	s.startNs += shift
	s.warmEndNs += shift
	s.endNs += shift
	s.giveUpNs = s.endNs + int64(o.drain*1e9)

	var senders sync.WaitGroup
	for _, c := range conns {
		senders.Add(1)
		go func(c *conn) { defer senders.Done(); c.send(s) }(c)
	}

	sleepUntil(s.warmEndNs)
	recv0, cpu0 := sumReceived(conns), takeCPUSample(o.serverPID)
	sleepUntil(s.endNs)
	recv1, cpu1 := sumReceived(conns), takeCPUSample(o.serverPID)

	// Drain: wait (bounded by --drain) until every window message's own copy is back.
	for nowNs() < s.giveUpNs && sumOwn(conns) < expectedOwn {
		time.Sleep(10 * time.Millisecond)
	}
	senders.Wait()
	closeAll(conns) // readers exit; their fields are ours from here

	window := float64(cpu1.at-cpu0.at) / 1e9
	res.receivedPerS = float64(recv1-recv0) / window
	res.clientCPU, res.serverCPU, res.stealPct = cpuPercents(cpu0, cpu1)
	if cpu0.err != nil {
		res.err = cpu0.err
	}
	var sentWindow, skipped int64
	var all []int64
	for _, c := range conns {
		sentWindow += int64(cap(c.rttNs)) - c.skipped
		skipped += c.skipped
		all = append(all, c.rttNs...)
		if c.readErr != nil && res.err == nil {
			res.err = fmt.Errorf("connection %d: %w", c.index, c.readErr)
		}
	}
	res.sentPerS = float64(sentWindow) / o.window
	if expectedOwn > 0 {
		res.deliveredPct = 100 * float64(len(all)) / float64(expectedOwn)
	}
	res.samples = len(all)
	res.meanMs, res.p99Ms = meanAndP99Ms(all)
	return res
}

func sumReceived(conns []*conn) (n int64) {
	for _, c := range conns {
		n += c.received.Load()
	}
	return n
}

func sumOwn(conns []*conn) (n int64) {
	for _, c := range conns {
		n += c.ownCount.Load()
	}
	return n
}

// meanAndP99Ms sorts samples in place (nanoseconds) and returns their mean and
// 99th percentile (nearest rank) in milliseconds.
func meanAndP99Ms(ns []int64) (mean, p99 float64) {
	if len(ns) == 0 {
		return 0, 0
	}
	var sum float64
	for _, v := range ns {
		sum += float64(v)
	}
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	rank := (99*len(ns) + 99) / 100 // ceil(0.99 n), 1-based
	return sum / float64(len(ns)) / 1e6, float64(ns[rank-1]) / 1e6
}

// connectAll opens level framed SockJS sessions (a few dials at a time) and
// waits for every "o" frame, each step bounded by --connect-timeout.
func connectAll(o *options, s *schedule) ([]*conn, error) {
	level := int(s.connections)
	dialer := websocket.Dialer{
		ReadBufferSize:   64 << 10,
		WriteBufferSize:  4 << 10,
		HandshakeTimeout: time.Duration(o.connectTimeout * 1e9),
		NetDialContext:   (&net.Dialer{Timeout: time.Duration(o.connectTimeout * 1e9)}).DialContext,
	}
	conns := make([]*conn, level)
	errs := make([]error, level)
	const parallelDials = 8
	var wg sync.WaitGroup
	slots := make(chan struct{}, parallelDials)
	for i := range conns {
		wg.Add(1)
		slots <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-slots }()
			// /broadcast/<server id>/<session id>/websocket: the framed transport.
			url := fmt.Sprintf("%s/broadcast/%03d/x%dp%dc%d/websocket", o.wsBase, i%1000, os.Getpid(), s.point, i)
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(o.connectTimeout*1e9))
			defer cancel()
			ws, resp, err := dialer.DialContext(ctx, url, http.Header{})
			if err != nil {
				if resp != nil {
					err = fmt.Errorf("%w (HTTP %s)", err, resp.Status)
				}
				errs[i] = fmt.Errorf("connect %s: %w", url, err)
				return
			}
			ws.SetReadLimit(maxFrameBytes)
			c := newConn(int64(i), ws, 2*s.point+1, s.measuredFor(int64(i)))
			conns[i] = c
			go c.read()
		}(i)
	}
	wg.Wait()
	var live []*conn
	var firstErr error
	for i, c := range conns {
		if c != nil {
			live = append(live, c)
		} else if firstErr == nil {
			firstErr = errs[i]
		}
	}
	if firstErr != nil {
		return live, firstErr
	}
	deadline := time.After(time.Duration(o.connectTimeout * 1e9))
	for _, c := range live {
		select {
		case <-c.opened:
		case <-deadline:
			return live, fmt.Errorf("no SockJS open frame on %d connections within %gs", level, o.connectTimeout)
		}
	}
	return live, nil
}

// closeAll closes every socket and waits for the readers to stop (idempotent).
func closeAll(conns []*conn) {
	for _, c := range conns {
		if c.closingOur.CompareAndSwap(false, true) {
			c.ws.Close()
		}
	}
	for _, c := range conns {
		c.waitReader()
	}
}
