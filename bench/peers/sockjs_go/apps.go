package main

// The SockJS applications of docs/protocol.md §4, mounted side by side.

import (
	"net/http"
	"strings"
	"time"

	"github.com/igm/sockjs-go/v3/sockjs"
)

type app struct {
	prefix  string
	options appOptions
	handle  func(sockjs.Session)
}

// contractApps: compression turns on permessage-deflate for every app's websockets (--compression).
func contractApps(broadcast *broadcastSet, compression bool) []app {
	return []app{
		{"/broadcast", appOptions{compression: compression}, broadcast.serve},
		// The conformance suite's streaming cases expect a 4 KiB response limit here.
		{"/echo", appOptions{responseLimitBytes: 4096, compression: compression}, echo},
		{"/close", appOptions{compression: compression}, closeRightAway},
		{"/disabled_websocket_echo", appOptions{websocketOff: true}, echo},
		{"/cookie_needed_echo", appOptions{cookieNeeded: true, compression: compression}, echo},
	}
}

// echo sends each message back to its own session.
func echo(s sockjs.Session) {
	for {
		msg, err := s.Recv()
		if err != nil {
			return
		}
		_ = s.Send(msg)
	}
}

func closeRightAway(s sockjs.Session) { _ = s.Close(3000, "Go away!") }

// prefixRouter sends a request to the app whose prefix is the path or starts
// it, unchanged. (net/http's ServeMux would redirect the unclean paths the
// SockJS suite probes, such as /echo//xhr, instead of letting the app 404 them.)
type prefixRouter []route

type route struct {
	prefix  string
	handler http.Handler
}

func newRouter(apps []app, heartbeat time.Duration, sessions *openSessions) prefixRouter {
	r := make(prefixRouter, 0, len(apps))
	for _, a := range apps {
		handler := newSockJSHandler(a.prefix, heartbeat, a.options, sessions.track(a.prefix, a.handle))
		r = append(r, route{a.prefix, handler})
	}
	return r
}

func (r prefixRouter) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	for _, route := range r {
		if req.URL.Path == route.prefix || strings.HasPrefix(req.URL.Path, route.prefix+"/") {
			route.handler.ServeHTTP(rw, req)
			return
		}
	}
	http.NotFound(rw, req)
}
