package gen

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

func (g *generator) writeBeans() error {
	for i := range g.beans {
		bp := &g.beans[i]
		b := &g.buf
		b.Reset()
		fmt.Fprintf(b, "---\n# %s\ntitle: %s\nstatus: %s\ntype: %s\npriority: %s\n", bp.id, bp.title, bp.status, bp.typ, bp.priority)
		if bp.parent >= 0 {
			fmt.Fprintf(b, "parent: %s\n", g.beans[bp.parent].id)
		}
		if len(bp.blocking) > 0 {
			ids := make([]string, len(bp.blocking))
			for k, j := range bp.blocking {
				ids[k] = g.beans[j].id
			}
			fmt.Fprintf(b, "blocking: [%s]\n", strings.Join(ids, ", "))
		}
		if len(bp.tags) > 0 {
			fmt.Fprintf(b, "tags: [%s]\n", strings.Join(bp.tags, ", "))
		}
		created := beanEpoch + int64(bp.created)*86400
		fmt.Fprintf(b, "created_at: %s\nupdated_at: %s\n---\n\n", isoDate(created), isoDate(created+int64(bp.created%7)*86400+3600))
		b.WriteString(g.pick(sentences))
		b.WriteByte('\n')
		for _, m := range bp.mentions {
			fmt.Fprintf(b, "\nSee `%s`.\n", m)
		}
		if err := g.file("beans/"+bp.id+"--"+bp.slug+".md", b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// beanEpoch is 2026-01-05T09:00:00Z, the first bean's creation time.
const beanEpoch = 1767603600

// isoDate formats a Unix time as RFC 3339 in UTC.
func isoDate(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }

// yamlScalar returns s as a YAML plain scalar when that is safe, else
// double-quoted.
func yamlScalar(s string) string {
	if strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") {
		return strconv.Quote(s)
	}
	return s
}
