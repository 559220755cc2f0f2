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
func (h *handlers) mcpHandler() http.Handler {
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
	// other error of the protocol.
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			sdk.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes))
		if err != nil {
			w.Header().Set("Content-Type", typeJSON)
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			_, _ = w.Write(rpcError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("request body over %d bytes", h.cfg.MaxBodyBytes)))
			return
		}
		if msg := mcpserve.Malformed(bytes.TrimSpace(body)); msg != nil {
			w.Header().Set("Content-Type", typeJSON)
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(msg)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sdk.ServeHTTP(w, r)
	})
}

func rpcError(code int, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
