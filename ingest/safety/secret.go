package safety

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// secretFormat is one well-known credential format. shown is how many
// characters of a match the message keeps: the format's fixed prefix,
// never a character of the secret itself.
type secretFormat struct {
	name string
	// starts are the literals a match begins with: the expression (anchored)
	// runs only where one occurs, so a file without them costs a byte search.
	starts []string
	re     *regexp.Regexp
	shown  int
	// minEntropy is the least entropy of the part after the prefix, so
	// that placeholders (sk-xxxx…) are not secrets.
	minEntropy float64
}

// secretFormats are the formats of the public secret scanners (gitleaks,
// GitHub secret scanning), the ones a corpus of agent files leaks. Each
// expression is anchored at one of its starts; a match must also begin a
// word.
var secretFormats = []secretFormat{
	{"AWS access key id", []string{"AKIA", "ASIA", "ABIA", "ACCA"}, regexp.MustCompile(`^(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`), 4, 3.0},
	{"GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, regexp.MustCompile(`^gh[pousr]_[A-Za-z0-9]{36,255}\b`), 4, 3.5},
	{"GitHub fine-grained token", []string{"github_pat_"}, regexp.MustCompile(`^github_pat_[A-Za-z0-9_]{60,255}`), 11, 3.5},
	{"Slack token", []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"}, regexp.MustCompile(`^xox[abposr]-[0-9A-Za-z]{6,}-[0-9A-Za-z-]{6,}`), 5, 3.0},
	{"Slack webhook URL", []string{"https://hooks.slack.com/"}, regexp.MustCompile(`^https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}`), 29, 3.5},
	{"Anthropic API key", []string{"sk-ant-"}, regexp.MustCompile(`^sk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{80,}`), 7, 3.5},
	{"OpenAI API key", []string{"sk-"}, regexp.MustCompile(`^sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}`), 3, 3.5},
	{"Google API key", []string{"AIza"}, regexp.MustCompile(`^AIza[0-9A-Za-z_-]{35}\b`), 4, 3.5},
	{"Stripe live key", []string{"sk_live_", "rk_live_"}, regexp.MustCompile(`^(?:sk|rk)_live_[0-9A-Za-z]{24,}`), 8, 3.5},
	{"npm token", []string{"npm_"}, regexp.MustCompile(`^npm_[A-Za-z0-9]{36}\b`), 4, 3.5},
	{"Hugging Face token", []string{"hf_"}, regexp.MustCompile(`^hf_[A-Za-z]{34,}\b`), 3, 3.5},
	{"private key", []string{"-----BEGIN "}, regexp.MustCompile(`^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`), 0, 0},
}

// maxStarts bounds the places one literal is tried at in one file: a
// file of a million "sk-" costs 1 024 anchored matches, not a million.
const maxStarts = 1024

// maxSecretLen bounds the text an anchored expression is given.
const maxSecretLen = 512

// matches are the [start, end) spans of f's matches in data, each
// beginning a word.
func (f secretFormat) matches(data []byte) [][2]int {
	var out [][2]int
	for _, st := range f.starts {
		for i, tried := 0, 0; i < len(data) && tried < maxStarts; tried++ {
			j := bytes.Index(data[i:], []byte(st))
			if j < 0 {
				break
			}
			p := i + j
			i = p + len(st)
			if p > 0 && isWordByte(data[p-1]) {
				continue
			}
			if m := f.re.FindIndex(data[p:min(len(data), p+maxSecretLen)]); m != nil {
				out = append(out, [2]int{p, p + m[1]})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// pemBody finds the base64 of a key after its header: a header alone is a
// format being documented, not a key.
var pemBody = regexp.MustCompile(`^(?:\s|\\n|\\r|[A-Za-z-]+: [^\n\\]*)*[A-Za-z0-9+/]{40,}`)

// assignment is a key whose name says it holds a secret, with its value,
// in YAML (`token: v`), JSON (`"apiKey": "v"`), or an env line (`TOKEN=v`);
// and an Authorization header's bearer value.
var assignment = regexp.MustCompile(`(?i)(?:["']?([A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passwd|access[_-]?key|private[_-]?key|credentials?|auth)[A-Za-z0-9_.-]*)["']?\s*[:=]\s*["']?(?:bearer\s+)?([A-Za-z0-9+/=_.~-]{20,}))|(?:\bbearer\s+([A-Za-z0-9+/=_.~-]{20,}))`)

// secrets reports credentials: the known formats anywhere in the file,
// and high-entropy values of secret-named keys in front matter and in
// manifests (every JSON or YAML file). The secret is masked: the message
// names the format, its public prefix and the length.
func (t *text) secrets() []record.Finding {
	var found []secretAt
	taken := map[int]bool{} // start offsets already reported (sk-ant- is also sk-)
	for _, f := range secretFormats {
		for _, m := range f.matches(t.data) {
			s := string(t.data[m[0]:m[1]])
			if taken[m[0]] || placeholder(s) {
				continue
			}
			if f.minEntropy > 0 && entropy(s[f.shown:]) < f.minEntropy {
				continue
			}
			if f.name == "private key" && !pemBody.Match(t.data[m[1]:min(len(t.data), m[1]+400)]) {
				continue
			}
			taken[m[0]] = true
			found = append(found, secretAt{m[0], fmt.Sprintf("%s at column %%d (%s, %d characters): %s", f.name, mask(s, f.shown), len(s), secretAdvice)})
		}
	}
	if t.manifest() || t.fmEnd > 0 {
		found = append(found, t.assignedSecrets(taken)...)
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].off < found[j].off })
	out := make([]record.Finding, 0, min(len(found), MaxPerRule+1))
	for i, f := range found {
		if i > MaxPerRule {
			break // capped says how many more
		}
		line, col := t.pos(f.off)
		out = append(out, record.New(record.CodeContentSecret, t.path, line, "", fmt.Sprintf(f.format, col)))
	}
	if len(found) > MaxPerRule {
		rest := len(found) - MaxPerRule
		out[MaxPerRule] = record.New(record.CodeContentSecret, t.path, out[MaxPerRule].Line, "",
			fmt.Sprintf("%d more secrets in this file from this line on are not listed (the first %d are)", rest, MaxPerRule))
	}
	return out
}

// secretAt is one secret found: its offset and its message, with a %d
// for the column (only the reported ones are given one).
type secretAt struct {
	off    int
	format string
}

const secretAdvice = "every agent that reads the file, and every clone of the corpus, has it; revoke it and pass it in from the environment"

// manifest reports whether the file is JSON or YAML configuration (not
// prose, not a module).
func (t *text) manifest() bool {
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if strings.HasSuffix(strings.ToLower(t.path), ext) {
			return true
		}
	}
	return false
}

// assignedSecrets are the secret-named keys with a random-looking value.
func (t *text) assignedSecrets(taken map[int]bool) []secretAt {
	var out []secretAt
	for _, m := range t.assignments() {
		vs, ve, key := m[4], m[5], ""
		if m[2] >= 0 {
			key = string(t.data[m[2]:m[3]])
		}
		if vs < 0 {
			vs, ve, key = m[6], m[7], "Authorization"
		}
		if taken[vs] || (!t.manifest() && !t.inFrontMatter(vs)) {
			continue
		}
		v := string(t.data[vs:ve])
		if placeholder(v) || !randomLooking(v) || notSecretKey(key) {
			continue
		}
		taken[vs] = true
		out = append(out, secretAt{vs, fmt.Sprintf("a high-entropy value of %q at column %%d (%d characters, %.1f bits a character): %s", key, len(v), entropy(v), secretAdvice)})
	}
	return out
}

// secretWords are the literals of assignment's key names.
var secretWords = []string{"key", "secret", "token", "passw", "auth", "credential", "bearer"}

// maxAssignWindows bounds the windows a file is searched in for each
// secret word (a manifest of 1 024 "token" keys is searched whole).
const maxAssignWindows = 1024

// assignments are assignment's matches (submatch indexes into the file)
// in windows around secretWords, each value once.
func (t *text) assignments() [][]int {
	// Only a manifest is judged whole; elsewhere only the front matter.
	lo, hi := 0, len(t.data)
	if !t.manifest() {
		lo, hi = t.fmStart, t.fmEnd
	}
	low := t.lowered()[:hi]
	var wins [][2]int
	for _, w := range secretWords {
		for i := lo; i < len(low); {
			j := bytes.Index(low[i:], []byte(w))
			if j < 0 {
				break
			}
			p := i + j
			i = p + len(w)
			wins = append(wins, [2]int{max(lo, p-80), min(len(low), p+len(w)+300)})
			if len(wins) >= maxAssignWindows {
				break
			}
		}
	}
	sort.Slice(wins, func(i, j int) bool { return wins[i][0] < wins[j][0] })
	var out [][]int
	seen := map[int]bool{}
	end := -1
	for _, w := range wins {
		if w[1] <= end {
			continue // inside the last window searched
		}
		start := max(w[0], end-300) // overlap: a value across two windows is found whole
		end = w[1]
		for _, m := range assignment.FindAllSubmatchIndex(t.data[start:w[1]], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += start
				}
			}
			v := m[4]
			if v < 0 {
				v = m[6]
			}
			if !seen[v] {
				seen[v] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// notSecretKey is a key that names a secret's kind or count, not one
// (max_tokens, token_count, tokenizer, auth_url, …).
func notSecretKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"count", "limit", "max", "min", "tokenizer", "url", "uri", "endpoint", "file", "path", "env", "header", "name", "type", "id", "usage", "budget"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// randomLooking reports whether v looks like a generated secret: long,
// mixed letters and digits, and high in entropy.
func randomLooking(v string) bool {
	var letters, digits int
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letters++
		}
	}
	return len(v) >= 20 && letters > 0 && digits > 0 && entropy(v) >= 3.8
}

// placeholder reports the values documents use instead of a secret.
func placeholder(s string) bool {
	l := strings.ToLower(s)
	for _, w := range []string{"example", "xxxx", "your", "placeholder", "dummy", "sample", "fake", "redacted", "changeme", "0000", "1234", "abcd", "test", "...", "<", "${", "{{"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of s in bits a character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

// mask keeps the format's public prefix of a secret and hides the rest.
func mask(s string, shown int) string {
	if shown <= 0 {
		return s + " with key data after it" // a PEM header is public; the key is not quoted
	}
	return s[:min(shown, len(s))] + "…"
}
