package tool

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/skillgraph/skillgraph/ingest/internal/ynode"
	"github.com/skillgraph/skillgraph/ingest/record"
)

// ports maps io.inputs or io.outputs; base is the JSON path of the list.
func (f *fileParser) ports(list *yaml.Node, inputs bool, base, subject string) []record.Port {
	var out []record.Port
	for i, pn := range ynode.Items(list) {
		if !ynode.IsMap(pn) {
			continue
		}
		at := fmt.Sprintf("%s[%d]", base, i)
		p := record.Port{
			Name:        ynode.Str(ynode.Get(pn, "name")),
			Description: ynode.Str(ynode.Get(pn, "description")),
			Line:        ynode.Line(pn),
		}
		p.Required, _ = ynode.Bool(ynode.Get(pn, "required"))
		p.Repeated, _ = ynode.Bool(ynode.Get(pn, "repeated"))
		safe, known := f.portType(&p, pn, at, subject)
		if inputs {
			f.arg(&p, pn, at, subject, safe, known)
		} else {
			p.Render = ynode.Str(ynode.Get(ynode.Get(pn, "render"), "as"))
		}
		out = append(out, p)
	}
	return out
}

// portType resolves `type: Name` or `schema: <IRI>` through the vocabulary.
// It returns whether the type is injection-safe and whether it resolved.
func (f *fileParser) portType(p *record.Port, pn *yaml.Node, at, subject string) (safe, known bool) {
	key := "type"
	ref := strings.TrimSpace(ynode.Str(ynode.Get(pn, key)))
	if ref == "" {
		key = "schema"
		ref = strings.TrimSpace(ynode.Str(ynode.Get(pn, key)))
	}
	if ref == "" {
		return false, false
	}
	if t, ok := f.voc.Resolve(ref); ok {
		p.TypeIRI, p.JSONType = t.IRI, t.JSONType
		return t.InjectionSafe, true
	}
	p.TypeIRI = ref
	why := "is not a type of the vocabulary"
	if key == "schema" {
		why = "names no type of the vocabulary"
		if !strings.Contains(ref, "#/$defs/") {
			why = "is not a type IRI (no #/$defs/)"
		}
	}
	f.add(record.CodePortTypeUnknown, ynode.Line(ynode.Get(pn, key)), subject,
		"%s: %s.%s: port %q: %s %q %s (vocabulary %s)", f.path, at, key, p.Name, key, ref, why, f.voc.CanonicalURL())
	return false, false
}

// arg reads arg: {flag} | {positional} | {stdin} and checks its safety.
func (f *fileParser) arg(p *record.Port, pn *yaml.Node, at, subject string, safe, known bool) {
	an := ynode.Get(pn, "arg")
	for _, pr := range ynode.Pairs(an) {
		switch pr.Key.Value {
		case "flag":
			if s := ynode.Str(pr.Value); s != "" {
				p.Arg = "flag:" + s
			}
		case "positional":
			if n, ok := ynode.Int(pr.Value); ok {
				p.Arg = fmt.Sprintf("positional:%d", n)
			}
		case "stdin":
			if b, _ := ynode.Bool(pr.Value); b {
				p.Arg = "stdin"
			}
		}
		if p.Arg != "" {
			break
		}
	}
	line := ynode.Line(an)
	switch {
	case p.Arg == "stdin" && p.Repeated:
		f.add(record.CodeToolInvalid, line, subject,
			"%s: %s.arg: input %q is repeated and cannot be read from stdin", f.path, at, p.Name)
	case p.Arg != "" && p.Arg != "stdin" && known && !safe:
		f.add(record.CodeInputUnsafeOnArgv, line, subject,
			"%s: %s.arg: input %q of type %s is not injection-safe but is passed on the command line (%s); free text belongs on stdin",
			f.path, at, p.Name, p.TypeIRI, p.Arg)
	}
}
