module sockbench/crosscheck-go

// The oldest Go this builds with (Debian 12's golang-go is 1.19); the Makefile uses the `go` on PATH.
go 1.19

require github.com/gorilla/websocket v1.5.3
