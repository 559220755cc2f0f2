package mcpserve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is the stdio transport of `skillgraph mcp`: newline-delimited
// JSON-RPC on r and w. The SDK's own stdio transport ends the session at
// the first line that is not a JSON-RPC message; here such a line is
// answered with a JSON-RPC error (parse error -32700, invalid request
// -32600, or a message over MaxMessageBytes) and the session goes on, so a
// malformed message is an error to its sender, never the end of the server.
// Only well-formed messages reach the SDK. The end of r ends the session
// once every request read has been answered (a host that writes its
// requests and closes stdin still gets every answer), or after
// DefaultTimeout.
func Stdio(r io.Reader, w io.Writer) mcp.Transport {
	lw := &lockedWriter{w: w, open: map[string]int{}, idle: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	go func() {
		err := filterMessages(r, pw, lw)
		lw.drain(DefaultTimeout)
		pw.CloseWithError(err)
	}()
	return &mcp.IOTransport{Reader: pr, Writer: lw, MaxLineLength: MaxMessageBytes + 1}
}

// lockedWriter serialises the SDK's writes and the filter's error replies
// (each is one Write of one whole line), and counts the requests not yet
// answered.
type lockedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	open map[string]int // request id (as JSON) → requests of it not answered
	idle chan struct{}  // signalled when open becomes empty
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(p, &m) == nil && m.Method == "" && len(m.ID) > 0 {
		l.answered(string(m.ID))
	}
	return l.w.Write(p)
}

// sent notes a request forwarded to the SDK.
func (l *lockedWriter) sent(id json.RawMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open[string(id)]++
}

// answered notes a response; l.mu is held.
func (l *lockedWriter) answered(id string) {
	if n := l.open[id]; n > 1 {
		l.open[id] = n - 1
	} else {
		delete(l.open, id)
	}
	if len(l.open) == 0 {
		select {
		case l.idle <- struct{}{}:
		default:
		}
	}
}

// drain waits until every forwarded request is answered, at most d.
func (l *lockedWriter) drain(d time.Duration) {
	deadline := time.After(d)
	for {
		l.mu.Lock()
		n := len(l.open)
		l.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-l.idle:
		case <-deadline:
			return
		}
	}
}

// Close leaves the underlying writer (the process's stdout) open.
func (l *lockedWriter) Close() error { return nil }

// filterMessages copies each well-formed JSON-RPC line of r to sdk and
// answers every other line on reply. It returns nil at the end of r.
func filterMessages(r io.Reader, sdk io.Writer, reply *lockedWriter) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, over, err := readLine(br, MaxMessageBytes)
		if len(bytes.TrimSpace(line)) > 0 || over {
			if msg := check(line, over); msg != nil {
				if _, werr := reply.Write(msg); werr != nil {
					return fmt.Errorf("write a JSON-RPC error: %w", werr)
				}
			} else {
				if id := requestID(line); id != nil {
					reply.sent(id)
				}
				if _, werr := sdk.Write(append(line, '\n')); werr != nil {
					return werr
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
	}
}

// readLine reads one line without its end; over is true when it is longer
// than limit (the rest of it is read and dropped, so memory stays bounded).
func readLine(br *bufio.Reader, limit int) (line []byte, over bool, err error) {
	for {
		chunk, isPrefix, rerr := br.ReadLine()
		if !over {
			if len(line)+len(chunk) > limit {
				over, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if rerr != nil {
			return line, over, rerr
		}
		if !isPrefix {
			return line, over, nil
		}
	}
}

// Malformed returns the JSON-RPC error (one line) answering body when it
// is not one well-formed JSON-RPC 2.0 message, else nil: the check the
// stdio transport makes, for the HTTP endpoint to make too.
func Malformed(body []byte) []byte { return check(body, len(body) > MaxMessageBytes) }

// check returns the JSON-RPC error line answering a malformed message, or
// nil when the line is one well-formed JSON-RPC message.
func check(line []byte, over bool) []byte {
	if over {
		return errorLine(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message over %d bytes", MaxMessageBytes))
	}
	if !json.Valid(line) {
		return errorLine(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorLine(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// requestID is the id of a request (a message with a method and an id),
// nil for a notification or a response.
func requestID(line []byte) json.RawMessage {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return nil
	}
	return m.ID
}

// idOf is the request id of an object that has a usable one, else nil
// (JSON-RPC 2.0: null when it cannot be determined).
func idOf(line []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	switch m.ID.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

func errorLine(id any, code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
