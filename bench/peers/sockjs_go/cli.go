package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// config is the command line of docs/protocol.md §1, plus --compression
// (docs/compression.md); no --naive: sockjs-go has one broadcast path, see broadcast.go.
type config struct {
	host        string  // address to listen on
	port        int     // TCP port, 0-65535; 0 = the OS picks
	heartbeatS  float64 // SockJS heartbeat interval, seconds, (0, maxHeartbeatS]
	logLevel    string  // debug | info | warning | error
	compression string  // none | permessage-deflate
	help        bool
}

// A year: far past any use, and well inside time.Duration (about 292 years).
const maxHeartbeatS = 365 * 24 * 3600

var logLevels = []string{"debug", "info", "warning", "error"}

// compressions are the --compression values (the registry's, docs/contract/sockbench_contract/registry.py).
var compressions = []string{"none", "permessage-deflate"}

const usage = `usage: sockjs-go-peer [--host HOST] [--port PORT] [--heartbeat SECONDS] [--log-level LEVEL]
                      [--compression none|permessage-deflate]

sockjs-go v3 (peer) serving the sockbench SockJS apps of docs/protocol.md
(/broadcast, /echo, /close, /disabled_websocket_echo, /cookie_needed_echo).

  --host HOST           address to listen on, IPv4/IPv6 literal or name (default 127.0.0.1)
  --port PORT           TCP port, integer 0-65535; 0 = any free port, the READY line says which (default 8080)
  --heartbeat SECONDS   SockJS heartbeat interval, seconds, number in (0, 31536000] (default 25)
  --log-level LEVEL     stderr verbosity: debug, info, warning, error (default warning)
  --compression MODE    none, or permessage-deflate: RFC 7692 on the websockets through gorilla/websocket's
                        EnableCompression (no context takeover: each message compressed on its own) (default none)
  --help                print this and exit 0
`

// usageError is a command-line mistake: the caller prints it with the usage
// on stderr and exits 2, before any socket is opened.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// parseArgs reads `--flag value` and `--flag=value`; anything else is a usageError
// naming the offending flag (the contract's tests look for the flag's name).
func parseArgs(args []string) (config, error) {
	cfg := config{host: "127.0.0.1", port: 8080, heartbeatS: 25, logLevel: "warning", compression: "none"}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--help" || arg == "-h" {
			cfg.help = true
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		if !strings.HasPrefix(name, "--") {
			return cfg, usageError{fmt.Sprintf("unexpected argument %q (flags are --host, --port, --heartbeat, --log-level, --compression)", arg)}
		}
		switch name {
		case "--host", "--port", "--heartbeat", "--log-level", "--compression":
		default:
			return cfg, usageError{fmt.Sprintf("unknown flag %s", name)}
		}
		if !hasValue {
			if i+1 >= len(args) {
				return cfg, usageError{fmt.Sprintf("flag %s needs a value", name)}
			}
			i++
			value = args[i]
		}
		if err := cfg.set(name, value); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

func (cfg *config) set(name, value string) error {
	switch name {
	case "--host":
		if value == "" {
			return usageError{"--host must not be empty"}
		}
		cfg.host = value
	case "--port":
		port, err := strconv.Atoi(value)
		if err != nil || port < 0 || port > 65535 {
			return usageError{fmt.Sprintf("--port must be an integer in 0-65535, got %q", value)}
		}
		cfg.port = port
	case "--heartbeat":
		s, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(s) || s <= 0 || s > maxHeartbeatS {
			return usageError{fmt.Sprintf("--heartbeat must be a number of seconds in (0, %d], got %q", maxHeartbeatS, value)}
		}
		cfg.heartbeatS = s
	case "--log-level":
		for _, level := range logLevels {
			if value == level {
				cfg.logLevel = value
				return nil
			}
		}
		return usageError{fmt.Sprintf("--log-level must be one of %s, got %q", strings.Join(logLevels, ", "), value)}
	case "--compression":
		for _, c := range compressions {
			if value == c {
				cfg.compression = value
				return nil
			}
		}
		return usageError{fmt.Sprintf("--compression must be one of %s, got %q", strings.Join(compressions, ", "), value)}
	}
	return nil
}
