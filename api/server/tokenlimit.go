package server

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Wrong bearer tokens are rationed per client (issue #28 row 15): each
// client may present TokenFailureBurst wrong tokens at once, then one per
// TokenFailureEvery; past that every request presenting a token is 429
// with Retry-After until the allowance refills, whether the token is right
// or not, so the answer says nothing about the token. A token is checked on
// every /graphql request (a query's viewer says whether it may record), so
// the whole endpoint is rationed, not only mutations.
const (
	TokenFailureBurst = 10
	TokenFailureEvery = 6 * time.Second
	// maxTokenClients bounds the clients remembered; when full, those whose
	// allowance is whole again are forgotten, and if none is, new clients
	// share one allowance.
	maxTokenClients = 10_000
)

// tokenLimiter holds one allowance of wrong tokens per client address.
type tokenLimiter struct {
	mu      sync.Mutex
	clients map[string]*rate.Limiter
	shared  *rate.Limiter
	now     func() time.Time // time.Now; a test's clock
}

func newTokenLimiter() *tokenLimiter {
	return &tokenLimiter{clients: map[string]*rate.Limiter{}, shared: newAllowance(), now: time.Now}
}

func newAllowance() *rate.Limiter {
	return rate.NewLimiter(rate.Every(TokenFailureEvery), TokenFailureBurst)
}

// client is the address a request came from: the peer of the connection
// (a forwarded-for header is the client's to write, so it is not trusted).
func client(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// allowance is the client's limiter, made on first use.
func (l *tokenLimiter) allowance(c string) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a, ok := l.clients[c]; ok {
		return a
	}
	if len(l.clients) >= maxTokenClients {
		now := l.now()
		for k, a := range l.clients {
			if a.TokensAt(now) >= TokenFailureBurst {
				delete(l.clients, k)
			}
		}
		if len(l.clients) >= maxTokenClients {
			return l.shared
		}
	}
	a := newAllowance()
	l.clients[c] = a
	return a
}

// blocked says whether client c has used up its wrong tokens, and in how
// many whole seconds it may try again.
func (l *tokenLimiter) blocked(c string) (bool, int) {
	a := l.allowance(c)
	left := a.TokensAt(l.now())
	if left >= 1 {
		return false, 0
	}
	wait := (1 - left) * TokenFailureEvery.Seconds()
	return true, max(1, int(math.Ceil(wait)))
}

// failed spends one of client c's wrong tokens.
func (l *tokenLimiter) failed(c string) {
	l.allowance(c).AllowN(l.now(), 1)
}

// retryAfter is the Retry-After value for a wait of s seconds.
func retryAfter(s int) string { return strconv.Itoa(s) }
