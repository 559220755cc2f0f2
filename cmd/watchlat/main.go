// Command watchlat measures how long an edited skill file takes to be
// served by `skillgraph serve --watch`: it rewrites the skill's front-matter
// description, then asks GraphQL on loopback until the new text is served,
// n times, and prints the latencies.
//
//	go run ./cmd/watchlat -url http://127.0.0.1:8080/graphql -file CORPUS/skills/pkg/name.md -n 10
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

var descLine = regexp.MustCompile(`(?m)^description: .*$`)

func main() {
	target := flag.String("url", "http://127.0.0.1:8080/graphql", "GraphQL endpoint (loopback only)")
	file := flag.String("file", "", "skill file to edit (its front matter needs a description: line)")
	n := flag.Int("n", 10, "edits to time")
	limit := flag.Duration("timeout", 60*time.Second, "give up on one edit after this long")
	flag.Parse()
	if err := run(*target, *file, *n, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "watchlat:", err)
		os.Exit(1)
	}
}

func run(target, file string, n int, limit time.Duration) error {
	u, err := url.Parse(target)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1") {
		return fmt.Errorf("-url must be a loopback address, not %q", target)
	}
	orig, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !descLine.Match(orig) {
		return fmt.Errorf("%s has no description: line", file)
	}
	defer os.WriteFile(file, orig, 0o644) //nolint:errcheck // best effort restore
	id := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	client := &http.Client{Timeout: 10 * time.Second}
	var lat []time.Duration
	for i := range n {
		want := fmt.Sprintf("watchlat edit %d at %d", i, time.Now().UnixNano())
		data := descLine.ReplaceAll(orig, []byte("description: "+want))
		start := time.Now()
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		for {
			got, err := description(client, target, id)
			if err != nil {
				return err
			}
			if got == want {
				break
			}
			if time.Since(start) > limit {
				return fmt.Errorf("edit %d not served after %v (serving %q)", i, limit, got)
			}
			time.Sleep(2 * time.Millisecond)
		}
		d := time.Since(start)
		lat = append(lat, d)
		fmt.Printf("edit %d: %v\n", i, d.Round(time.Millisecond))
		time.Sleep(300 * time.Millisecond) // let the server settle between edits
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Printf("n=%d min %v median %v max %v\n", len(lat), lat[0].Round(time.Millisecond),
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond))
	return nil
}

func description(c *http.Client, target, id string) (string, error) {
	body, _ := json.Marshal(map[string]any{"query": `query($id: ID!) { skill(id: $id) { description } }`, "variables": map[string]any{"id": id}})
	res, err := c.Post(target, "application/json", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var out struct {
		Data struct {
			Skill *struct {
				Description string `json:"description"`
			} `json:"skill"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return "", err
	}
	if out.Data.Skill == nil {
		return "", fmt.Errorf("no skill %q", id)
	}
	return out.Data.Skill.Description, nil
}
