package main

// Every open session of every app, so that SIGTERM/SIGINT can close them all
// with the contract's close frame (docs/protocol.md §3).

import (
	"sync"

	"github.com/igm/sockjs-go/v3/sockjs"
)

type openSessions struct {
	mu      sync.Mutex
	set     map[sockjs.Session]string // session -> the app prefix it belongs to (for log lines)
	closing bool                      // set once shutdown began: sessions opened after it are closed at once
	log     *logger
}

func newOpenSessions(log *logger) *openSessions {
	return &openSessions{set: make(map[sockjs.Session]string), log: log}
}

// track wraps an app's session handler so the session is known while it runs.
func (o *openSessions) track(prefix string, handle func(sockjs.Session)) func(sockjs.Session) {
	return func(s sockjs.Session) {
		if !o.add(s, prefix) {
			goAway(s)
			return
		}
		o.log.debugf("%s: session %q opened", prefix, s.ID())
		defer func() {
			o.remove(s)
			o.log.debugf("%s: session %q closed", prefix, s.ID())
		}()
		handle(s)
	}
}

func (o *openSessions) add(s sockjs.Session, prefix string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closing {
		return false
	}
	o.set[s] = prefix
	return true
}

func (o *openSessions) remove(s sockjs.Session) {
	o.mu.Lock()
	delete(o.set, s)
	o.mu.Unlock()
}

// closeAll closes every open session and refuses any that opens later;
// it returns how many it closed.
func (o *openSessions) closeAll() int {
	o.mu.Lock()
	o.closing = true
	open := make([]sockjs.Session, 0, len(o.set))
	for s := range o.set {
		open = append(open, s)
	}
	o.mu.Unlock()
	for _, s := range open {
		goAway(s)
	}
	return len(open)
}
