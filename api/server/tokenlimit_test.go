package server

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestTokenLimiterRefills: a client's wrong tokens are rationed with its
// own allowance, which refills with time; other clients are not affected.
func TestTokenLimiterRefills(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := newTokenLimiter()
	l.now = func() time.Time { return now }
	for i := range TokenFailureBurst {
		if stop, _ := l.blocked("a"); stop {
			t.Fatalf("blocked after %d failures", i)
		}
		l.failed("a")
	}
	stop, wait := l.blocked("a")
	if !stop || wait != int(TokenFailureEvery.Seconds()) {
		t.Fatalf("after the burst: blocked %v, retry in %d s", stop, wait)
	}
	if stop, _ := l.blocked("b"); stop {
		t.Fatal("another client is blocked")
	}
	now = now.Add(TokenFailureEvery)
	if stop, _ := l.blocked("a"); stop {
		t.Fatal("still blocked once the allowance refilled")
	}
}

// TestTokenLimiterClientsBounded: the clients remembered are bounded;
// those whose allowance is whole are forgotten first.
func TestTokenLimiterClientsBounded(t *testing.T) {
	l := newTokenLimiter()
	for i := range maxTokenClients + 10 {
		l.blocked(httptest.NewRequest("GET", "/", nil).RemoteAddr + string(rune(i)))
	}
	if n := len(l.clients); n > maxTokenClients {
		t.Fatalf("%d clients remembered", n)
	}
}
