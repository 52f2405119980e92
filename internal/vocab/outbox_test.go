package vocab

import (
	"strings"
	"testing"
)

// Rule 8's key, as the relay and Kafka consumers read it: the numbers in
// decimal (negative ones too), a target longer than the stack buffer whole.
func TestIdempotencyKey(t *testing.T) {
	long := "KAFKA:" + strings.Repeat("x", 80)
	for _, c := range []struct {
		msgID, flid, version int64
		target, want         string
	}{
		{1, 7, 1, TargetMsg, "1:7:1:KAFKA:msg"},
		{9223372036854775807, 30001, 12, TargetSchd, "9223372036854775807:30001:12:KAFKA:schd"},
		{-9223372036854775808, -1, 0, TargetMsg, "-9223372036854775808:-1:0:KAFKA:msg"},
		{9223372036854775807, 9223372036854775807, 9223372036854775807, long,
			"9223372036854775807:9223372036854775807:9223372036854775807:" + long},
	} {
		if got := IdempotencyKey(c.msgID, c.flid, c.version, c.target); got != c.want {
			t.Errorf("IdempotencyKey(%d, %d, %d, %q) = %q, want %q", c.msgID, c.flid, c.version, c.target, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = IdempotencyKey(123456, 98765, 3, TargetSchd) }); n != 1 {
		t.Errorf("IdempotencyKey allocates %v objects, want 1 (the key)", n)
	}
}

func BenchmarkIdempotencyKey(b *testing.B) {
	b.ReportAllocs()
	for i := range b.N {
		_ = IdempotencyKey(int64(1000000+i), 30001, 4, TargetMsg)
	}
}
