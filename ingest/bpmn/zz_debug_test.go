package bpmn

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	files := os.Getenv("BPMN_FILES")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		data, _ := os.ReadFile(f)
		r := Parse(f, data)
		for _, fi := range r.Findings {
			fmt.Printf("%s:%d %s %s %s\n", f, fi.Line, fi.Severity, fi.Code, fi.Message)
		}
		for _, p := range r.Processes {
			fmt.Printf("%s: process %s (%s) line %d: %d activities, %d lanes, %d flows\n", f, p.ID, p.Stem, p.Line, len(p.Activities), len(p.Lanes), len(p.Flows))
			if os.Getenv("V") != "" {
				b, _ := json.MarshalIndent(p, "", " ")
				fmt.Println(string(b))
			}
		}
	}
}
