//go:build unix

package bolt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// checkNotLocked fails fast when another process holds the bbolt file:
// Cayley opens it without a timeout, so the open would wait forever (and a
// signal could not interrupt it).
func checkNotLocked(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "indexes.bolt"), os.O_RDWR, 0)
	if err != nil {
		return nil // absent: created on open; unreadable: open reports it
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("%w (%s): %s", ErrStoreBusy, dir, describeHolder(f))
		}
		return nil
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// describeHolder says which process holds the lock on f, as far as the
// system tells (/proc/locks on Linux names the pid; elsewhere nothing), and
// what to do about it: a serve is queried, an ingest is waited for.
func describeHolder(f *os.File) string {
	pid := lockHolder(f)
	if pid == 0 {
		return "another skillgraph process (a `serve`, or an `ingest` still running) holds it — wait for an ingest to finish, or query a running server's /graphql"
	}
	cmd := commandLine(pid)
	switch {
	case strings.Contains(cmd, " serve"):
		return fmt.Sprintf("held by pid %d (%s) — query the server's /graphql, or run a replica on a shared PostgreSQL store", pid, cmd)
	case cmd == "":
		return fmt.Sprintf("held by pid %d — wait for it to finish, or stop it", pid)
	}
	return fmt.Sprintf("held by pid %d (%s) — wait for it to finish, or stop it", pid, cmd)
}

// lockHolder returns the pid of a process holding a flock on f's inode, or
// 0 when unknown. /proc/locks lines read
// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (pid, major:minor:inode).
func lockHolder(f *os.File) int {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	dev := uint64(sys.Dev) // int32 on some systems
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, uint64(sys.Ino))
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		// Blocked waiters are listed as "1: -> FLOCK …" and skipped.
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}

// commandLine is the command line of pid (arguments joined by spaces,
// shortened), or "" when unknown.
func commandLine(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
	if len(args) > 0 {
		args[0] = filepath.Base(args[0])
	}
	s := strings.Join(args, " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
