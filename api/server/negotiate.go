package server

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Content negotiation (RFC 9110 §12.5.1), shared by every negotiated route
// (/export, /id/..., /graphql): the Accept header's media ranges with their
// q-values, the most specific range deciding each offer's quality.

// mediaRange is one entry of an Accept header.
type mediaRange struct {
	typ, sub string // "*" for wildcards
	q        float64
}

// parseAccept reads an Accept header; entries that do not parse are ignored,
// as a client's typo should not turn into a refusal of everything.
func parseAccept(header string) []mediaRange {
	var out []mediaRange
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		mt, params, err := mime.ParseMediaType(part)
		if err != nil {
			continue
		}
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		out = append(out, mediaRange{typ: typ, sub: sub, q: q})
	}
	return out
}

// quality is the q-value the ranges give mediaType: that of the most
// specific matching range (type/sub over type/* over */*), -1 when none
// matches.
func quality(ranges []mediaRange, mediaType string) float64 {
	typ, sub, _ := strings.Cut(mediaType, "/")
	best, spec := -1.0, -1
	for _, r := range ranges {
		s := -1
		switch {
		case r.typ == typ && r.sub == sub:
			s = 2
		case r.typ == typ && r.sub == "*":
			s = 1
		case r.typ == "*" && r.sub == "*":
			s = 0
		}
		if s > spec {
			best, spec = r.q, s
		}
	}
	return best
}

// negotiate returns the offer the request's Accept header prefers, ties
// going to the earlier offer (the server's preference), or "" when the
// client accepts none of them. No Accept header accepts anything: the
// first offer.
func negotiate(r *http.Request, offers ...string) string {
	header := strings.Join(r.Header.Values("Accept"), ",")
	if strings.TrimSpace(header) == "" {
		if len(offers) == 0 {
			return ""
		}
		return offers[0]
	}
	ranges := parseAccept(header)
	if len(ranges) == 0 { // nothing parsed: treat as absent
		return offers[0]
	}
	best, bestQ := "", 0.0
	for _, o := range offers {
		if q := quality(ranges, o); q > bestQ {
			best, bestQ = o, q
		}
	}
	return best
}

// accepts reports whether the Accept header names mediaType itself (not
// through a wildcard) with a q-value above zero: for choices a wildcard
// must not make, such as answering a browser's GET /graphql with GraphiQL.
func accepts(r *http.Request, mediaType string) bool {
	for _, m := range parseAccept(strings.Join(r.Header.Values("Accept"), ",")) {
		if m.typ+"/"+m.sub == mediaType && m.q > 0 {
			return true
		}
	}
	return false
}
