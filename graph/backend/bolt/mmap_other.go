//go:build !unix

package bolt

// initialMmap is 0 (bbolt's own growth) where bbolt grows the file itself
// to the size of its map (Windows): a 256 MiB map would be a 256 MiB file.
const initialMmap = 0
