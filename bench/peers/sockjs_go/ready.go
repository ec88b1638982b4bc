package main

// The READY line of docs/protocol.md §2: what runs, so result files can say it.

import (
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
)

func readyLine(cfg config, port int) string {
	sockjsGo, websocket := libraryVersions()
	fields := []string{
		"server=sockjs-go",
		"runtime=go",
		"runtime_version=" + token(strings.TrimPrefix(runtime.Version(), "go")),
		"sockjs-go=" + token(sockjsGo),
		"gorilla-websocket=" + token(websocket),
		// Its one broadcast path writes one frame per message per recipient (broadcast.go).
		"mode=naive",
		"compression=" + cfg.compression, // docs/compression.md
		"heartbeat=" + strconv.FormatFloat(cfg.heartbeatS, 'g', -1, 64),
		fmt.Sprintf("disconnect_delay_ms=%d", defaultDisconnectDelay().Milliseconds()),
		fmt.Sprintf("response_limit=%d", defaultResponseLimit()),
		// GOMAXPROCS follows the CPUs the process may run on (taskset pins it).
		fmt.Sprintf("gomaxprocs=%d", runtime.GOMAXPROCS(0)),
		"peer=true",
	}
	url := "http://" + net.JoinHostPort(cfg.host, strconv.Itoa(port))
	return "READY " + url + " " + strings.Join(fields, " ")
}

// token makes a READY value of any text: values carry no spaces (percent-encoded).
func token(value string) string {
	if value == "" {
		return "unknown"
	}
	return strings.ReplaceAll(value, " ", "%20")
}
