package graph

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/cayleygraph/quad"
)

// ChangesSince reads the store's current version v and, when the backend
// can tell from its checkpoint what changed after version since, the
// changes that bring version since to v: one per graph written (its quads
// as stored) or deleted after since, in graph-name order, as Apply was
// given them (a graph written twice in between comes once, as it is now).
// ok false means the backend cannot tell (it keeps no such record, or the
// checkpoint does not cover since): read the whole version instead. A
// follower (a replica) updates its snapshot from them (queries Update)
// instead of reading every graph again.
func (s *Store) ChangesSince(ctx context.Context, since int64) (v int64, changes []Change, ok bool, err error) {
	defer s.guard(&err)()
	if err := s.damaged(); err != nil {
		return 0, nil, false, err
	}
	if s.deltas == nil || s.noCheckpoint {
		return 0, nil, false, nil
	}
	defer s.readLock()()
	var mu sync.Mutex
	v, ok, err = s.deltas.ReadSince(ctx, since, runtime.GOMAXPROCS(0), func(label string, quads []quad.Quad, gone bool) error {
		c := Change{Graph: label, Delete: gone}
		if !gone {
			c.Quads = slices.Clone(quads) // the backend reuses its slice
		}
		mu.Lock()
		changes = append(changes, c)
		mu.Unlock()
		return nil
	})
	if err != nil || !ok {
		return v, nil, false, err
	}
	s.noteVersion(v)
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Graph, b.Graph) })
	return v, changes, true, nil
}
