package bolt

import "syscall"

// dropResident drops the pages of bbolt's memory map in [data, data+size)
// from this process's resident set. bbolt reads its file through a shared,
// read-only map; every page a write's B-tree search touches stays mapped,
// and counted in the process's RSS, until bbolt next remaps the file. A
// first ingest of a 10k-skill corpus touches most of its 480 MB file that
// way (≈ 300 MB of RSS by its end, beside the early snapshot a cold
// `serve` holds). MADV_DONTNEED on a shared file map only unmaps: the data
// stays in the file and the page cache, and the next read of a page maps
// it again (madvise(2)).
func dropResident(data uintptr, size int64) error {
	if data == 0 || size <= 0 {
		return nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, data, uintptr(size), syscall.MADV_DONTNEED); errno != 0 {
		return errno
	}
	return nil
}
