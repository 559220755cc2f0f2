package queries

import (
	"strings"

	"github.com/skillgraph/skillgraph/ingest/record"
)

// beanParentTypes lists the parent types each bean type allows.
var beanParentTypes = map[string][]string{
	"milestone": {},
	"epic":      {"milestone"},
	"feature":   {"milestone", "epic"},
	"task":      {"milestone", "epic", "feature"},
	"bug":       {"milestone", "epic", "feature"},
}

// checkBeans checks the bean hierarchy (SPEC §2.6): parent types and
// cycles; dangling bean references are reported where they are resolved.
func (s *Snapshot) checkBeans(out *findings) {
	for _, b := range s.Beans {
		if b.Parent != nil && b.Parent != b {
			allowed, known := beanParentTypes[b.Type]
			_, parentKnown := beanParentTypes[b.Parent.Type]
			if known && parentKnown && !contains(allowed, b.Parent.Type) {
				want := "no parent"
				if len(allowed) > 0 {
					want = "a parent of type " + strings.Join(allowed, " or ")
				}
				out.add(s.finding(record.CodeBeanParentType, b.Source, refLine(b.Refs, "parent", b.ParentRef, b.Line), b.IRI,
					"bean %s is %s under %s, %s; %s takes %s", b.ID, record.A(b.Type), b.Parent.ID, record.A(b.Parent.Type), record.A(b.Type), want))
			}
		}
	}
	// Cycles, once per cycle; self-links are the parser's bean-self-link.
	parentEdges := func(b *Bean) []*Bean {
		if b.Parent != nil && b.Parent != b {
			return []*Bean{b.Parent}
		}
		return nil
	}
	blockEdges := func(b *Bean) []*Bean {
		var out []*Bean
		for _, o := range b.Blocking {
			if o != b {
				out = append(out, o)
			}
		}
		return out
	}
	for _, kind := range []struct {
		name  string
		edges func(*Bean) []*Bean
	}{{"parent", parentEdges}, {"blocking", blockEdges}} {
		for _, comp := range sccs(s.Beans, kind.edges) {
			if len(comp) < 2 {
				continue
			}
			var ids, files []string
			for _, b := range comp {
				ids = append(ids, b.ID)
				files = append(files, fileOf(b.Source))
			}
			first := comp[0]
			out.add(s.finding(record.CodeBeanCycle, first.Source, first.Line, first.IRI,
				"%s cycle between beans %s (files %s)", kind.name, strings.Join(ids, ", "), strings.Join(files, ", ")))
		}
	}
}
