// Command sockjs-go-peer: sockjs-go v3 (github.com/igm/sockjs-go), used as
// shipped, behind sockbench's wire contract (docs/protocol.md): the command
// line, the READY line, SIGTERM, and the SockJS apps the benchmark and the
// conformance suite use. It is a peer, not sockbench's own server.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// The contract gives a server 2 s from the signal to exit; the HTTP requests
// still open get this long to finish after their sessions were closed.
const shutdownGrace = 1200 * time.Millisecond

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	cfg, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sockjs-go-peer: %s\n\n%s", err, usage)
		return 2
	}
	if cfg.help {
		fmt.Print(usage)
		return 0
	}
	logs := newLogger(cfg.logLevel)

	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "sockjs-go-peer: cannot listen on %s port %d: %v\n", cfg.host, cfg.port, err)
		return 1
	}

	heartbeat := time.Duration(cfg.heartbeatS * float64(time.Second))
	sessions := newOpenSessions(logs)
	srv := &http.Server{
		Handler:  newRouter(contractApps(newBroadcastSet(), cfg.compression == "permessage-deflate"), heartbeat, sessions),
		ErrorLog: httpErrorLog(logs),
	}
	go func() { _ = srv.Serve(ln) }()

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	fmt.Println(readyLine(cfg, ln.Addr().(*net.TCPAddr).Port)) // os.Stdout is unbuffered

	sig := <-stop
	logs.infof("%s: closing every session and stopping", sig)
	shutdown(srv, ln, sessions)
	return 0
}

// shutdown: stop accepting, close every session with its close frame, let the
// requests that carried them finish, then drop whatever is left.
func shutdown(srv *http.Server, ln net.Listener, sessions *openSessions) {
	_ = ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	done := make(chan struct{})
	go func() {
		_ = srv.Shutdown(ctx)
		close(done)
	}()
	sessions.closeAll()
	<-done
	_ = srv.Close()
	// Websocket connections are hijacked: net/http neither waits for them nor
	// closes them. Their close frames were written by closeAll; give sockjs-go a
	// moment to close the sockets itself, so clients see an orderly end.
	time.Sleep(100 * time.Millisecond)
}

// httpErrorLog routes net/http's own complaints (bad requests, handlers that
// write twice) to stderr at warning level, or nowhere when the level is error.
func httpErrorLog(logs *logger) *log.Logger {
	if logs.min > 2 {
		return log.New(io.Discard, "", 0)
	}
	return log.New(os.Stderr, "warning sockjs-go-peer: net/http: ", log.LstdFlags|log.Lmicroseconds)
}
