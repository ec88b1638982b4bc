package main

// One SockJS connection of a point: a reader goroutine that counts every
// message and times this connection's own copies, and a sender goroutine that
// follows the point's fixed schedule. gorilla/websocket allows one concurrent
// reader and one concurrent writer per connection, which is exactly this split.

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// maxFrameBytes bounds one server frame (a fast-mode server coalesces many messages per frame).
const maxFrameBytes = 64 << 20

type conn struct {
	index int64
	ws    *websocket.Conn

	opened     chan struct{} // closed when the server's "o" frame arrives
	sawOpen    bool
	readerDone chan struct{} // closed when read returns

	// Written by the reader goroutine, read by the point while it runs.
	received atomic.Int64 // every message of every a-frame, any sender, any phase
	ownCount atomic.Int64 // own copies of the measured window (also counted in received)

	// Owned by the reader until it exits (the point waits for that before reading).
	measureEpoch int64
	rttNs        []int64 // own copies of the measured window: arrival - scheduled; cap = scheduled count
	rttDropped   int64   // own copies beyond rttNs's capacity (a duplicating server)
	readErr      error   // why the reader stopped, when it was not our own close
	buf          []byte
	frameNow     int64 // arrival time of the frame being scanned, 0 = not read yet

	// Written by the sender goroutine, read after it exits.
	sent       int64 // messages written, all phases
	skipped    int64 // measured-window messages never written (sender too late, or write failed)
	writeErr   error
	closingOur atomic.Bool // we closed the socket: the reader's error is expected
}

func newConn(index int64, ws *websocket.Conn, measureEpoch, measured int64) *conn {
	return &conn{
		index:        index,
		ws:           ws,
		opened:       make(chan struct{}),
		readerDone:   make(chan struct{}),
		measureEpoch: measureEpoch,
		rttNs:        make([]int64, 0, measured),
	}
}

func (c *conn) waitReader() { <-c.readerDone }

// read runs until the socket fails or closes. Each frame is read into one
// reused buffer and scanned in place; nothing is allocated per message.
func (c *conn) read() {
	defer close(c.readerDone)
	visit := c.visit
	for {
		_, r, err := c.ws.NextReader()
		if err != nil {
			c.noteReadErr(err)
			return
		}
		if c.buf, err = readInto(r, c.buf); err != nil {
			c.noteReadErr(err)
			return
		}
		c.frameNow = 0
		kind, n, err := ScanFrame(c.buf, visit)
		if err != nil {
			c.noteReadErr(fmt.Errorf("bad frame from server: %w", err))
			return
		}
		switch kind {
		case FrameArray:
			c.received.Add(int64(n))
		case FrameOpen:
			if !c.sawOpen {
				c.sawOpen = true
				close(c.opened)
			}
		case FrameClose:
			c.noteReadErr(fmt.Errorf("server closed the session: %.80s", c.buf))
			return
		}
	}
}

// visit is called for every message of an a-frame.
func (c *conn) visit(msg []byte) {
	sched, ok := OwnScheduledNs(msg, c.measureEpoch, c.index)
	if !ok {
		return
	}
	if c.frameNow == 0 { // one clock read per frame: its messages arrived together
		c.frameNow = nowNs()
	}
	if len(c.rttNs) < cap(c.rttNs) {
		c.rttNs = append(c.rttNs, c.frameNow-sched)
	} else {
		c.rttDropped++
	}
	c.ownCount.Add(1)
}

func (c *conn) noteReadErr(err error) {
	if !c.closingOur.Load() {
		c.readErr = err
	}
}

// readInto reads one whole WebSocket message into buf (reused, grown as needed).
func readInto(r io.Reader, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxFrameBytes {
				return buf, fmt.Errorf("server frame larger than %d bytes", maxFrameBytes)
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// schedule is a point's send plan. Message k of the point (k = 0, 1, ...) is
// due at start + k/rate and is sent by connection k mod N, so the total rate is
// spread evenly over the connections and over time.
type schedule struct {
	startNs, warmEndNs, endNs int64
	rate                      float64 // messages/s, all connections together
	connections               int64
	point                     int64 // epochs 2*point (warm-up) and 2*point+1 (window)
	size                      int
	giveUpNs                  int64 // a sender still behind at this time stops and counts the rest as skipped
}

func (s *schedule) dueNs(k int64) int64 { return s.startNs + int64(float64(k)*1e9/s.rate) }

// measuredFor returns how many window messages connection i is scheduled to send.
func (s *schedule) measuredFor(i int64) int64 {
	var n int64
	for k := i; ; k += s.connections { // bounded: due times grow with k up to endNs
		due := s.dueNs(k)
		if due >= s.endNs {
			return n
		}
		if due >= s.warmEndNs {
			n++
		}
	}
}

// send writes connection c's share of the schedule. A message is written at
// its due time or, when the sender is late, at once; its payload carries the
// due time, so lateness counts as latency (no coordinated omission).
func (c *conn) send(s *schedule) {
	out := make([]byte, 0, s.size+64)
	c.ws.SetWriteDeadline(time.Now().Add(time.Duration(s.giveUpNs - nowNs())))
	for k := c.index; ; k += s.connections {
		due := s.dueNs(k)
		if due >= s.endNs {
			return
		}
		measured := due >= s.warmEndNs
		if c.writeErr != nil || nowNs() > s.giveUpNs {
			if measured {
				c.skipped++
			}
			continue
		}
		sleepUntil(due)
		epoch := 2 * s.point
		if measured {
			epoch++
		}
		// A framed SockJS client sends a JSON array of strings.
		out = append(out[:0], '[', '"')
		out = AppendPayload(out, epoch, c.index, k, due, s.size)
		out = append(out, '"', ']')
		if err := c.ws.WriteMessage(websocket.TextMessage, out); err != nil {
			c.writeErr = err
			if measured {
				c.skipped++
			}
			continue
		}
		c.sent++
	}
}
