package main

import (
	"testing"
	"time"
)

// The READY line reads the versions from the binary's build info; go.mod pins them.
func TestLibraryVersionsAreThePinnedOnes(t *testing.T) {
	sockjsGo, websocket := libraryVersions()
	if sockjsGo != "3.0.2" || websocket != "1.4.2" {
		t.Fatalf("sockjs-go %s, gorilla/websocket %s: go.mod pins 3.0.2 on 1.4.2", sockjsGo, websocket)
	}
}

// The READY line reports these as what every app runs with (docs/protocol.md §4 defaults).
func TestLibraryDefaultsAreTheContracts(t *testing.T) {
	if d := defaultDisconnectDelay(); d != 5*time.Second {
		t.Errorf("disconnect delay %v, the contract says 5 s", d)
	}
	if n := defaultResponseLimit(); n != 128*1024 {
		t.Errorf("response limit %d, the contract says 128 KiB", n)
	}
}
