package main

import (
	"strings"
	"testing"
)

// scan collects what ScanFrame hands to its visitor.
func scan(t *testing.T, frame string) (FrameKind, []string, error) {
	t.Helper()
	var got []string
	kind, n, err := ScanFrame([]byte(frame), func(m []byte) { got = append(got, string(m)) })
	if err == nil && n != len(got) {
		t.Fatalf("%q: count %d but %d visits", frame, n, len(got))
	}
	return kind, got, err
}

func TestScanFrameSplitsArrayStringsAtUnescapedQuotesOnly(t *testing.T) {
	cases := []struct {
		frame string
		want  []string // raw bytes between the quotes, escapes kept
	}{
		{`a["one"]`, []string{`one`}},
		{`a["a","b","c"]`, []string{`a`, `b`, `c`}},
		{`a["a", "b"]`, []string{`a`, `b`}}, // Python's json puts a space after commas
		{`a[ "x" ,"y" ] `, []string{`x`, `y`}},
		{`a["say \"hi\"","x"]`, []string{`say \"hi\"`, `x`}}, // escaped quotes do not end a string
		{`a["ends with backslash\\","x"]`, []string{`ends with backslash\\`, `x`}},
		{`a["\\\"","x"]`, []string{`\\\"`, `x`}}, // escaped backslash, then escaped quote
		{`a["\\\\"]`, []string{`\\\\`}},
		{`a["\u0022quoted\u0022","caf\u00e9 \ud83d\ude00"]`, []string{`\u0022quoted\u0022`, `caf\u00e9 \ud83d\ude00`}},
		{`a["[not, an] \"array\", \"x\"",""]`, []string{`[not, an] \"array\", \"x\"`, ``}},
		{`a[]`, nil},
		{"a[\"utf-8 é raw\"]", []string{"utf-8 é raw"}},
	}
	for _, c := range cases {
		kind, got, err := scan(t, c.frame)
		if err != nil || kind != FrameArray {
			t.Errorf("%q: kind %q err %v", c.frame, kind, err)
			continue
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("%q: got %q, want %q", c.frame, got, c.want)
		}
	}
}

func TestScanFrameKnowsOpenHeartbeatAndClose(t *testing.T) {
	for frame, want := range map[string]FrameKind{"o": FrameOpen, "h": FrameHeartbeat, `c[3000,"Go away!"]`: FrameClose} {
		kind, got, err := scan(t, frame)
		if err != nil || kind != want || len(got) != 0 {
			t.Errorf("%q: kind %q, %d messages, err %v; want %q", frame, kind, len(got), err, want)
		}
	}
}

func TestScanFrameRejectsMalformedFrames(t *testing.T) {
	for _, frame := range []string{
		``, `x`, `ox`, `hh`,
		`a`, `a"x"`, `a[`, `a["x"`, `a["x",]`, `a["x" "y"]`, `a[1]`, `a["x"]]`, `a["x"] junk`,
		`a["unterminated]`, `a["escaped end\"]`, `a["x\\\"]`,
	} {
		if _, _, err := scan(t, frame); err == nil {
			t.Errorf("%q: accepted, want an error", frame)
		}
	}
}

func TestOwnCopiesAreFoundInsideAFrameByEpochAndConnection(t *testing.T) {
	mine := string(AppendPayload(nil, 7, 42, 123, 987654321, 64))
	other := string(AppendPayload(nil, 7, 41, 124, 5, 64))
	warmup := string(AppendPayload(nil, 6, 42, 125, 6, 64))
	if len(mine) != 64 {
		t.Fatalf("payload %q has %d characters, want 64", mine, len(mine))
	}
	frame := `a["` + other + `", "` + mine + `","` + warmup + `","4:2:\"x\":1:"]`
	var found []int64
	_, n, err := ScanFrame([]byte(frame), func(m []byte) {
		if sched, ok := OwnScheduledNs(m, 7, 42); ok {
			found = append(found, sched)
		}
	})
	if err != nil || n != 4 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	if len(found) != 1 || found[0] != 987654321 {
		t.Fatalf("own copies %v, want [987654321]", found)
	}
}

func TestProcStatCPUCountsFromTheLastParenthesis(t *testing.T) {
	// A command name with spaces and ')' must not shift the fields.
	line := "1234 (we ird) name) S 1 1 1 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 1 0 100 1000 10\n"
	got, err := parseProcStatCPU([]byte(line))
	if err != nil || got != 300/clockTicks {
		t.Fatalf("got %v err %v, want %v", got, err, 300/clockTicks)
	}
}
