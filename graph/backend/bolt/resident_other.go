//go:build !linux

package bolt

// dropResident does nothing here: the pages of bbolt's map stay resident
// until the kernel reclaims them or bbolt remaps the file.
func dropResident(uintptr, int64) error { return nil }
