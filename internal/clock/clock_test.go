package clock

import (
	"testing"
	"time"
)

func TestFakeFiresWhenAdvancedPastDeadline(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	f := NewFake(t0)
	ch := f.After(2 * time.Second)
	f.Advance(time.Second)
	select {
	case <-ch:
		t.Fatal("fired before its deadline")
	default:
	}
	f.Advance(time.Second)
	select {
	case got := <-ch:
		if !got.Equal(t0.Add(2 * time.Second)) {
			t.Fatalf("fired at %v", got)
		}
	default:
		t.Fatal("did not fire at its deadline")
	}
	if !f.Now().Equal(t0.Add(2 * time.Second)) {
		t.Fatalf("now = %v", f.Now())
	}
}
