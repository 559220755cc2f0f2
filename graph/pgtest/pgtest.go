// Package pgtest gives tests a scratch PostgreSQL database on the server
// that scripts/test.sh starts on loopback.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/lib/pq" // the driver Cayley's postgres backend uses
)

// Scratch creates an empty database on the PostgreSQL server named by
// SKILLGRAPH_TEST_POSTGRES and returns its DSN; the database is dropped when
// the test ends. Without a reachable server the test is skipped, or fails
// under SKILLGRAPH_REQUIRE_POSTGRES=1 (as CI sets it).
func Scratch(t testing.TB) string {
	t.Helper()
	admin := os.Getenv("SKILLGRAPH_TEST_POSTGRES")
	unavailable := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("SKILLGRAPH_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("SKILLGRAPH_REQUIRE_POSTGRES=1 but "+format, args...)
		}
		t.Skipf(format, args...)
	}
	if admin == "" {
		unavailable("SKILLGRAPH_TEST_POSTGRES is not set")
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("SKILLGRAPH_TEST_POSTGRES: %v", err)
	}
	db, err := sql.Open("postgres", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		unavailable("PostgreSQL at %s unreachable: %v", u.Redacted(), err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "sg_test_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("postgres", admin)
		if err != nil {
			t.Error(err)
			return
		}
		defer db.Close()
		if _, err := db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
