//go:build unix

package bolt

// initialMmap is the size bbolt maps the file with from the start (address
// space, not memory: only the pages read are resident). Each time a
// commit grows the file past the map, bbolt remaps it and copies out
// every node the transaction holds; one large ingest transaction remapped
// at each doubling, a fifth of its time at 32 000 subjects (issue 28.10).
const initialMmap = 256 << 20
