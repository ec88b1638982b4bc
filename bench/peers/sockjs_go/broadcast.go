package main

// The /broadcast app the way a sockjs-go user writes it: every session's own
// goroutine reads its messages with Recv and hands each one to Send of every
// open session, the sender included. Send writes one frame per call to an
// attached receiver (on a websocket, `a["<message>"]` per message per
// recipient), so this is the naive algorithm of bench/matrix.py: sockjs-go
// has no call that encodes a message once for many sessions, nor one that
// coalesces the messages of several senders into one frame.
//
// Order: one sender's messages are handed out by one goroutine, one after
// the other, so every recipient gets them in the order they were sent.

import (
	"sync"
	"sync/atomic"

	"github.com/igm/sockjs-go/v3/sockjs"
)

// broadcastSet is the open sessions of /broadcast. Senders read it without a
// lock (a copy-on-write slice): joins and leaves copy it, fan-outs never wait
// for them, and one recipient whose socket is slow to take a write holds up
// only the senders writing to it, not every sender.
type broadcastSet struct {
	mu      sync.Mutex // serialises joins and leaves
	members atomic.Pointer[[]sockjs.Session]
}

func newBroadcastSet() *broadcastSet {
	b := &broadcastSet{}
	b.members.Store(&[]sockjs.Session{})
	return b
}

func (b *broadcastSet) join(s sockjs.Session) {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := *b.members.Load()
	next := make([]sockjs.Session, len(old), len(old)+1)
	copy(next, old)
	next = append(next, s)
	b.members.Store(&next)
}

func (b *broadcastSet) leave(s sockjs.Session) {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := *b.members.Load()
	next := make([]sockjs.Session, 0, len(old))
	for _, m := range old {
		if m != s {
			next = append(next, m)
		}
	}
	b.members.Store(&next)
}

// send hands msg to every open session. A session that closed meanwhile
// refuses it (ErrSessionNotOpen), which is its own business.
func (b *broadcastSet) send(msg string) {
	for _, s := range *b.members.Load() {
		_ = s.Send(msg)
	}
}

// serve is the handler of one /broadcast session.
func (b *broadcastSet) serve(s sockjs.Session) {
	b.join(s)
	defer b.leave(s)
	for {
		msg, err := s.Recv()
		if err != nil {
			return
		}
		b.send(msg)
	}
}
