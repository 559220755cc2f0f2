package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillgraph/skillgraph/graph"
	"github.com/skillgraph/skillgraph/graph/ingest"
	"github.com/skillgraph/skillgraph/queries"
	"github.com/skillgraph/skillgraph/queries/history"
)

// TestIngestRecordsTallies: each `ingest` (and `check --corpus`) that
// commits a version stores that version's tallies; one that commits
// nothing, and a read of the store, add no record.
func TestIngestRecordsTallies(t *testing.T) {
	corpus := filepath.Join(t.TempDir(), "harness")
	copyDir(t, exampleCorpus, corpus)
	store := "bbolt:" + filepath.Join(t.TempDir(), "g.db")
	for _, step := range []struct {
		name     string
		edit     func()
		args     []string
		versions []int64
	}{
		{"the first ingest", nil, []string{"ingest", "--corpus", corpus, "--store", store}, []int64{1}},
		{"unchanged", nil, []string{"ingest", "--corpus", corpus, "--store", store}, []int64{1}},
		{"a Tool removed, check --corpus", func() {
			if err := os.Remove(filepath.Join(corpus, "tools", "outline-gen.json")); err != nil {
				t.Fatal(err)
			}
		}, []string{"check", "--corpus", corpus, "--store", store}, []int64{1, 2}},
		{"a read of the store", nil, []string{"coverage", "--store", store}, []int64{1, 2}},
	} {
		if step.edit != nil {
			step.edit()
		}
		if _, errs, code := runCLI(t, step.args...); code > 1 {
			t.Fatalf("%s: exit %d: %s", step.name, code, errs)
		}
		ctx := context.Background()
		st, err := graph.Open(ctx, store)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := history.Stored(ctx, st)
		var versions []int64
		for _, v := range got {
			versions = append(versions, v.Version)
		}
		snap, err2 := queries.Build(ctx, st)
		st.Close()
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		if !reflect.DeepEqual(versions, step.versions) {
			t.Fatalf("%s: records of versions %v, want %v", step.name, versions, step.versions)
		}
		if want := history.Of(snap).Bounded(history.TopCodes); !reflect.DeepEqual(got[len(got)-1].Tallies, want) {
			t.Fatalf("%s: last record\n%+v\nwant\n%+v", step.name, got[len(got)-1].Tallies, want)
		}
	}
}

// TestIngestTalliedInTheWrite: `ingest` into a store that holds a version
// commits the next version's record in the version's own write (it is
// there when the write returns, before any record after it), with the
// tallies a build of the committed store gives; the first write and a
// write of nothing leave that to recordIngest.
func TestIngestTalliedInTheWrite(t *testing.T) {
	ctx := context.Background()
	corpus := filepath.Join(t.TempDir(), "harness")
	copyDir(t, exampleCorpus, corpus)
	st, err := graph.Open(ctx, "bbolt:"+filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, step := range []struct {
		name     string
		edit     string // a Tool file removed first
		versions []int64
	}{
		{"the first write", "", nil},
		{"nothing changed", "", nil},
		{"a Tool removed", "outline-gen.json", []int64{2}},
		{"another", "fact-check.json", []int64{2, 3}},
	} {
		if step.edit != "" {
			if err := os.Remove(filepath.Join(corpus, "tools", step.edit)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ingestTallied(ctx, st, []string{corpus}, ingest.Options{}); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, _, err := history.Stored(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		var versions []int64
		for _, v := range got {
			versions = append(versions, v.Version)
		}
		if !reflect.DeepEqual(versions, step.versions) {
			t.Fatalf("%s: records of versions %v, want %v", step.name, versions, step.versions)
		}
		if len(got) == 0 {
			continue
		}
		snap, err := queries.Build(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if want := history.Of(snap).Bounded(history.TopCodes); !reflect.DeepEqual(got[len(got)-1].Tallies, want) {
			t.Fatalf("%s: last record\n%+v\nwant the committed store's\n%+v", step.name, got[len(got)-1].Tallies, want)
		}
	}
}
