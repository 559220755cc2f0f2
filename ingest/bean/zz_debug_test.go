package bean

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	files := os.Getenv("BEAN_FILES")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Fields(files) {
		data, _ := os.ReadFile(f)
		r := Parse(f, data)
		for _, fi := range r.Findings {
			fmt.Printf("F %s:%d %s %s %s\n", f, fi.Line, fi.Severity, fi.Code, fi.Message)
		}
		if os.Getenv("V") != "" {
			fmt.Printf("%+v\n", r.Beans[0])
		}
	}
}
