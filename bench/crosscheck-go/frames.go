package main

// The SockJS frame scanner: the only code that looks at what the server sends.
//
// A server->client SockJS frame is one WebSocket text message: "o" (open), "h"
// (heartbeat), "c[code,\"reason\"]" (close) or "a[...]" (a JSON array of
// strings, one string per application message; a fast-mode server may put
// hundreds in one frame). At millions of messages per second the receive path
// must cost bytes, not objects, so the scanner never decodes a string: it finds
// each string's closing quote with bytes.IndexByte (vectorised) and hands the
// raw, still-escaped bytes to the caller. Our own payloads contain nothing a
// JSON encoder escapes, so the raw bytes of our messages are the payload.
// It is not a validator: it checks the array structure, not UTF-8 or the
// escape sequences inside strings.

import (
	"bytes"
	"errors"
	"fmt"
)

// FrameKind is the SockJS frame type, named by its first byte.
type FrameKind byte

const (
	FrameOpen      FrameKind = 'o'
	FrameHeartbeat FrameKind = 'h'
	FrameArray     FrameKind = 'a'
	FrameClose     FrameKind = 'c'
)

var errEmptyFrame = errors.New("empty SockJS frame")

// ScanFrame classifies one SockJS frame and, for an a[...] frame, calls visit
// with the raw bytes between the quotes of each string, in order. It returns the
// number of messages (0 for o, h and c). The slice passed to visit aliases frame:
// visit must not keep it.
func ScanFrame(frame []byte, visit func(msg []byte)) (FrameKind, int, error) {
	if len(frame) == 0 {
		return 0, 0, errEmptyFrame
	}
	kind := FrameKind(frame[0])
	switch kind {
	case FrameOpen, FrameHeartbeat:
		if len(frame) != 1 {
			return kind, 0, fmt.Errorf("SockJS %q frame with trailing bytes (%d bytes)", kind, len(frame))
		}
		return kind, 0, nil
	case FrameClose:
		// c[code,"reason"]: the caller reports it; nothing to count.
		return kind, 0, nil
	case FrameArray:
		n, err := scanArray(frame, 1, visit)
		return kind, n, err
	default:
		return 0, 0, fmt.Errorf("unknown SockJS frame type %q", frame[0])
	}
}

// scanArray scans the JSON array of strings that starts at b[i]. Every loop
// turn consumes at least two bytes, so the loop ends within len(b)/2 turns.
func scanArray(b []byte, i int, visit func(msg []byte)) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '[' {
		return 0, errors.New("a-frame does not start with '['")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return 0, expectEnd(b, i+1)
	}
	n := 0
	for {
		if i >= len(b) || b[i] != '"' {
			return n, fmt.Errorf("a-frame: expected a string at byte %d", i)
		}
		end, err := stringEnd(b, i+1)
		if err != nil {
			return n, err
		}
		visit(b[i+1 : end])
		n++
		i = skipSpace(b, end+1)
		if i >= len(b) {
			return n, errors.New("a-frame: unterminated array")
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case ']':
			return n, expectEnd(b, i+1)
		default:
			return n, fmt.Errorf("a-frame: expected ',' or ']' at byte %d", i)
		}
	}
}

// stringEnd returns the index of the quote that closes the string whose first
// content byte is b[from]. A quote is escaped when an odd number of backslashes
// precede it (`\"` is escaped, `\\"` is a backslash and then the end).
func stringEnd(b []byte, from int) (int, error) {
	i := from
	for i <= len(b) {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			break
		}
		q += i
		backslashes := 0
		for k := q - 1; k >= from && b[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q, nil
		}
		i = q + 1
	}
	return 0, errors.New("a-frame: unterminated string")
}

// skipSpace skips JSON whitespace (Python's json puts a space after each comma).
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func expectEnd(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return fmt.Errorf("a-frame: trailing bytes after the array at byte %d", i)
	}
	return nil
}
