package main

// The fence: the one file that knows sockjs-go (github.com/igm/sockjs-go/v3,
// pinned to v3.0.2 in go.mod). The rest of the peer sees only
// newSockJSHandler, goAway and libraryVersions. Everything here goes through
// the library's exported API; where the peer relies on how that API behaves
// beyond its doc comments, the comment next to it says so, and the shared
// conformance suite (make test-peer-sockjs-go) fails if the behaviour changes.

import (
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/igm/sockjs-go/v3/sockjs"
)

const (
	libraryModule   = "github.com/igm/sockjs-go/v3"
	websocketModule = "github.com/gorilla/websocket"
)

// appOptions are the per-app settings of docs/protocol.md §4; everything else
// stays at sockjs.DefaultOptions.
type appOptions struct {
	responseLimitBytes uint32 // bytes one streaming response may carry before the client must reopen it; 0 = library default (128 KiB)
	websocketOff       bool   // no framed nor raw websocket endpoint; /info says "websocket": false
	cookieNeeded       bool   // /info says "cookie_needed": true and transports set JSESSIONID
	compression        bool   // accept RFC 7692 permessage-deflate on the websockets (--compression)
}

// newSockJSHandler mounts one SockJS app under prefix; handle runs once per
// session, on its own goroutine, for the session's lifetime.
func newSockJSHandler(prefix string, heartbeat time.Duration, o appOptions, handle func(sockjs.Session)) http.Handler {
	opts := sockjs.DefaultOptions
	opts.HeartbeatDelay = heartbeat
	opts.Websocket = !o.websocketOff
	// The contract's raw endpoint (<prefix>/websocket) is off by default in sockjs-go.
	opts.RawWebsocket = !o.websocketOff
	if o.responseLimitBytes > 0 {
		opts.ResponseLimit = o.responseLimitBytes
	}
	if o.cookieNeeded {
		opts.JSessionID = sockjs.DefaultJSessionID
	}
	if o.compression {
		// Options.WebsocketUpgrader is the library's exported way to configure the upgrade
		// (sockjs.DefaultOptions holds a zero Upgrader, shared: a fresh one here). gorilla
		// then answers an offer with "permessage-deflate; server_no_context_takeover;
		// client_no_context_takeover" and compresses every data message on its own (no
		// context kept between messages, pooled flate writers at its default level).
		opts.WebsocketUpgrader = &websocket.Upgrader{EnableCompression: true}
	}
	return sockjs.NewHandler(prefix, opts, handle)
}

// goAway closes one session as docs/protocol.md §3 asks on SIGTERM:
// c[3000,"Go away!"] on SockJS transports, a WebSocket close frame with code
// 1001 on a raw websocket.
//
// Behaviour relied on: Session.Close writes the close frame to an attached
// receiver before it returns (so it is on the socket before the process
// exits), and on a raw websocket session it becomes a WebSocket close frame
// carrying the given code and reason instead of a SockJS `c` frame.
func goAway(s sockjs.Session) {
	if s.ReceiverType() == sockjs.ReceiverTypeRawWebsocket {
		_ = s.Close(1001, "Go away!")
		return
	}
	_ = s.Close(3000, "Go away!")
}

// defaultDisconnectDelay and defaultResponseLimit are what the library uses
// for every app that does not set them; the READY line reports them.
func defaultDisconnectDelay() time.Duration { return sockjs.DefaultOptions.DisconnectDelay }
func defaultResponseLimit() uint32          { return sockjs.DefaultOptions.ResponseLimit }

// libraryVersions reads the versions linked into this binary from its build
// info (go.mod is the one place they are pinned): sockjs-go and the
// websocket library it runs on, without the leading "v".
func libraryVersions() (sockjsGo, gorillaWebsocket string) {
	sockjsGo, gorillaWebsocket = "unknown", "unknown"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	for _, dep := range info.Deps {
		version := dep.Version
		if dep.Replace != nil {
			version = dep.Replace.Version
		}
		switch dep.Path {
		case libraryModule:
			sockjsGo = strings.TrimPrefix(version, "v")
		case websocketModule:
			gorillaWebsocket = strings.TrimPrefix(version, "v")
		}
	}
	return
}
