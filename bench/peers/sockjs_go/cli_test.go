package main

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultsAreTheContracts(t *testing.T) {
	cfg, err := parseArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.host != "127.0.0.1" || cfg.port != 8080 || cfg.heartbeatS != 25 || cfg.logLevel != "warning" {
		t.Fatalf("defaults: %+v", cfg)
	}
}

func TestBothFlagFormsAreRead(t *testing.T) {
	cfg, err := parseArgs([]string{"--host", "::1", "--port=0", "--heartbeat", "0.5", "--log-level=debug"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.host != "::1" || cfg.port != 0 || cfg.heartbeatS != 0.5 || cfg.logLevel != "debug" {
		t.Fatalf("parsed: %+v", cfg)
	}
}

func TestCompressionIsReadAndDefaultsToNone(t *testing.T) {
	cfg, err := parseArgs(nil)
	if err != nil || cfg.compression != "none" {
		t.Fatalf("default: %+v %v", cfg, err)
	}
	cfg, err = parseArgs([]string{"--compression=permessage-deflate"})
	if err != nil || cfg.compression != "permessage-deflate" {
		t.Fatalf("parsed: %+v %v", cfg, err)
	}
}

func TestMistakesAreUsageErrorsNamingTheFlag(t *testing.T) {
	cases := map[string][]string{
		"--bogus":       {"--bogus"},
		"-port":         {"-port", "80"},
		"--port":        {"--port"},
		"--heartbeat":   {"--heartbeat", "1e9"},
		"--log-level":   {"--log-level", "loud"},
		"--compression": {"--compression", "gzip"},
		"--host":        {"--host="},
		"positional":    {"positional"},
	}
	for name, args := range cases {
		_, err := parseArgs(args)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("%v: want a usage error, got %v", args, err)
			continue
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("%v: error %q does not name %s", args, err, name)
		}
	}
}
