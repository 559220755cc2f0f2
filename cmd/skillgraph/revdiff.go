package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/diff"
)

// revisionDiffer is the diff an MCP client may ask for (the diff tool of
// `skillgraph mcp` and POST /mcp): the served corpora compared with
// themselves as of a git revision, read from the repository's objects.
// Only a revision is accepted, never a folder: an agent, possibly remote
// over HTTP, does not name paths on the server.
func revisionDiffer(corpora []string, maxSize int64, found func() []sarifCorpus) func(ctx context.Context, rev string, head *queries.Snapshot) (*diff.Report, error) {
	return func(ctx context.Context, rev string, head *queries.Snapshot) (*diff.Report, error) {
		if len(corpora) == 0 {
			return nil, fmt.Errorf("this server reads no corpus folder (a store only): there is no repository to read %s from", rev)
		}
		if rev = strings.TrimSpace(rev); rev == "" || strings.HasPrefix(rev, "-") {
			return nil, fmt.Errorf("base must be a git revision (a commit, branch or tag), not %q", rev)
		}
		tmp, err := os.MkdirTemp("", "skillgraph-mcp-diff-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		bases := make(corpusFlag, len(corpora))
		for i, corpus := range corpora {
			dir := filepath.Join(tmp, strconv.Itoa(i))
			// baseFolder reads a folder when one exists: a revision is
			// resolved first so that no path on the server is ever read.
			if bases[i], err = revisionFolder(ctx, rev, corpus, dir, maxSize); err != nil {
				return nil, err
			}
		}
		base := common{corpora: bases, maxSize: maxSize, allowEmpty: true}
		before, err := base.snapshot(ctx, "memory", io.Discard, false)
		if err != nil {
			return nil, fmt.Errorf("base %s: %w", rev, err)
		}
		return diff.Compare(before, head, diff.Options{Rename: renames(base.found, found())}), nil
	}
}

// revisionFolder is baseFolder for a revision only: the corpus folder as
// of rev, checked out from git objects under dir.
func revisionFolder(ctx context.Context, rev, corpus, dir string, maxSize int64) (string, error) {
	// A name that is also a path relative to the working directory must
	// still be read as a revision: baseFolder prefers folders, so hand it
	// a name no path has.
	if _, err := os.Lstat(rev); err == nil {
		return "", fmt.Errorf("%q names a file on the server as well as (maybe) a revision: give the commit hash instead", rev)
	}
	return baseFolder(ctx, rev, corpus, dir, maxSize)
}
