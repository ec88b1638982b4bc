module sockbench/peers/sockjs_go

// The oldest Go this builds with (Debian 12's golang-go is 1.19); the Makefile uses the `go` on PATH.
go 1.19

// The peer as its authors ship it: sockjs-go v3.0.2 on the gorilla/websocket its
// own go.mod asks for (minimal version selection, nothing raised by hand).
// gorilla/websocket at the version sockjs-go v3.0.2 asks for; named directly because
// --compression configures its Upgrader (library.go).
require (
	github.com/gorilla/websocket v1.4.2
	github.com/igm/sockjs-go/v3 v3.0.2
)
