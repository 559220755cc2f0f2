package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillgraph/skillgraph/api/mcpserve"
)

// mcpHandler is POST /mcp: the MCP server of `skillgraph mcp` over
// Streamable HTTP, answering from the served snapshot (swapped after each
// ingest like /graphql's). Stateless with plain JSON responses: every
// request stands alone, so the server keeps no sessions (memory bounded
// by the requests in flight) and no stream outlives a request; the body
// cap and deadline are /graphql's.
func (h *handlers) mcpHandler() endpoint {
	srv := mcpserve.New(mcpserve.Options{
		Snapshot: h.svc.Snapshot,
		Schema:   h.schema,
		Limits:   h.cfg.Limits,
		Timeout:  h.cfg.RequestTimeout,
		Files:    h.cfg.Files,
		Diff:     h.cfg.Diff,
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		Logger:              h.log,
		MaxRequestBodyBytes: h.cfg.MaxBodyBytes,
	})
	// A POST body that is no JSON-RPC message is answered here with a
	// JSON-RPC error (the SDK answers text): a client reads it like any
	// other error of the protocol. wrap has bounded the body.
	return func(_ http.Header, r *http.Request) reply {
		if r.Method != http.MethodPost {
			return reply{handler: sdk}
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return reply{code: http.StatusRequestEntityTooLarge, ctype: typeJSON,
				body: rpcError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("request body over %d bytes", h.cfg.MaxBodyBytes))}
		}
		if msg := mcpserve.Malformed(bytes.TrimSpace(body)); msg != nil {
			return reply{code: http.StatusBadRequest, ctype: typeJSON, body: msg}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		return reply{handler: sdk}
	}
}

func rpcError(code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
