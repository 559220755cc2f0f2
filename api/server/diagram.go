package server

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/go-chi/chi/v5"

	"github.com/skillgraph/skillgraph/queries"
)

// maxDiagramBytes bounds a BPMN file served when the ingest options set
// no file-size limit.
const maxDiagramBytes = 16 << 20

// errNoDiagram is a process whose file this server cannot hand out as read.
var errNoDiagram = errors.New("no diagram")

// diagram serves GET /diagram/{id}: the BPMN file the process {id} was
// read from, exactly as read (its SHA-256 equals the one the snapshot
// records), so the page can draw it with its BPMN DI (issue 25.8). The
// drawing is the file's, the colours the snapshot's: the page takes the
// steps' coverage and reachability from /graphql. A replica has no corpus,
// and a file changed or removed since it was read is not the one the
// answers describe: both are 404s, and the page keeps its step table.
func (h *handlers) diagram(w http.ResponseWriter, r *http.Request) {
	snap := h.svc.Snapshot()
	if snap == nil {
		http.Error(w, "not ready: no snapshot yet", http.StatusServiceUnavailable)
		return
	}
	p := snap.Process(chi.URLParam(r, "id"))
	if p == nil || p.Source == nil {
		http.Error(w, "no such process", http.StatusNotFound)
		return
	}
	b, err := h.svc.sourceAsRead(p.Source)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-cache")
	// The file is data for a script of this origin, never a document.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.Header().Set("Content-Disposition", "inline; filename="+fmt.Sprintf("%q", filepath.Base(p.Source.Path)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}

// sourceAsRead returns the bytes of a corpus file when one of the
// served corpora holds it with the digest the snapshot records.
func (s *Service) sourceAsRead(src *queries.Source) ([]byte, error) {
	if len(s.corpora) == 0 {
		return nil, fmt.Errorf("%w: this server has no corpus (read-only replica)", errNoDiagram)
	}
	rel := filepath.Clean(filepath.FromSlash(src.Path))
	if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%w: source path %q is not inside the corpus", errNoDiagram, src.Path)
	}
	limit := s.opt.MaxFileSize
	if limit <= 0 {
		limit = maxDiagramBytes
	}
	for _, root := range s.corpora {
		b, err := readCapped(root, rel, limit)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		if src.SHA256 == "" || hex.EncodeToString(sum[:]) == src.SHA256 {
			return b, nil
		}
	}
	return nil, fmt.Errorf("%w: %s is not in the corpus as it was read (changed or removed since)", errNoDiagram, src.Path)
}

// readCapped reads the regular file rel of at most limit bytes inside
// the folder dir, opened as an os.Root: the path cannot leave it, through
// ".." or a symbolic link.
func readCapped(dir, rel string, limit int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > limit {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", rel, limit)
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}
