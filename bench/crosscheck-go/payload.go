package main

// The cross-check's own payload (servers never look inside, docs/protocol.md §4.3):
//
//	<epoch>:<conn>:<seq>:<scheduled_ns>:xxxx...
//
// epoch   2p for the warm-up of point p, 2p+1 for its measured window, so a copy
//         from another phase is never timed as this window's;
// conn    the sending connection's index within the point (0..N-1);
// seq     the message's index in the point's global send schedule;
// scheduled_ns  when the schedule said to send it: monotonic nanoseconds since
//         the process's clock origin (see clock.go), not when it was written,
//         so a late sender shows up as latency instead of vanishing.
// Padding with 'x' up to --size characters. Only digits, ':' and 'x': nothing a
// JSON encoder escapes, so the bytes a server echoes are the bytes sent.

import "strconv"

// maxDigits bounds every numeric field (int64 has at most 19 digits).
const maxDigits = 19

// AppendPayload appends one payload of at least size characters to dst.
func AppendPayload(dst []byte, epoch, conn, seq, scheduledNs int64, size int) []byte {
	start := len(dst)
	dst = strconv.AppendInt(dst, epoch, 10)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, conn, 10)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, seq, 10)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, scheduledNs, 10)
	dst = append(dst, ':')
	for len(dst)-start < size {
		dst = append(dst, 'x')
	}
	return dst
}

// OwnScheduledNs returns the scheduled send time of msg if it is connection
// conn's own copy from epoch; ok is false for anything else (other senders,
// other phases, foreign or malformed strings). Most messages are someone
// else's, so the epoch and conn fields are checked before anything else is read.
func OwnScheduledNs(msg []byte, epoch, conn int64) (scheduledNs int64, ok bool) {
	v, i, ok := field(msg, 0)
	if !ok || v != epoch {
		return 0, false
	}
	if v, i, ok = field(msg, i); !ok || v != conn {
		return 0, false
	}
	if _, i, ok = field(msg, i); !ok { // seq: not needed for timing
		return 0, false
	}
	v, _, ok = field(msg, i)
	return v, ok
}

// field parses the decimal digits at msg[i:] up to a ':' and returns the value
// and the index after the colon.
func field(msg []byte, i int) (int64, int, bool) {
	var v int64
	start := i
	for i < len(msg) && i-start < maxDigits && msg[i] >= '0' && msg[i] <= '9' {
		v = v*10 + int64(msg[i]-'0')
		i++
	}
	if i == start || i >= len(msg) || msg[i] != ':' {
		return 0, 0, false
	}
	return v, i + 1, true
}
