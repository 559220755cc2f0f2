package graph

// The backends a store URL can name: each registers itself with
// graph/backend when imported. A new backend is one more import here.
import (
	"github.com/skillgraph/skillgraph/graph/backend/bolt"
	_ "github.com/skillgraph/skillgraph/graph/backend/memory"   // "memory"
	_ "github.com/skillgraph/skillgraph/graph/backend/postgres" // "postgres:DSN", postgres:// URLs
)

// ErrStoreBusy is returned when another process holds a bbolt store.
var ErrStoreBusy = bolt.ErrStoreBusy
