package tsmodule

import (
	"encoding/json"
	"fmt"
)

// zod evaluates one step of a Zod chain: a constructor on the z namespace
// or a method of a schema. Only what decides a port type's JSON type, its
// pattern, its enum values and its description is kept; refinements that
// do not change the type (min, max, optional, …) keep the schema.
func (p *Program) zod(recv Value, method string, args []Value, at origin) Value {
	if _, ok := recv.(*zodNS); ok {
		switch method {
		case "string":
			return &Zod{origin: at, Type: "string"}
		case "number":
			return &Zod{origin: at, Type: "number"}
		case "bigint":
			return &Zod{origin: at, Type: "integer"}
		case "boolean":
			return &Zod{origin: at, Type: "boolean"}
		case "object", "record", "map":
			return &Zod{origin: at, Type: "object"}
		case "array", "tuple", "set":
			return &Zod{origin: at, Type: "array"}
		case "enum":
			z := &Zod{origin: at, Type: "string"}
			if len(args) == 1 {
				if arr, ok := args[0].(*Array); ok {
					for _, it := range arr.Items {
						s, ok := it.(*String)
						if !ok {
							return &Zod{origin: at, Type: "string"}
						}
						z.Enum = append(z.Enum, s.V)
					}
				}
			}
			return z
		case "literal":
			if len(args) == 1 {
				switch args[0].(type) {
				case *String:
					return &Zod{origin: at, Type: "string"}
				case *Number:
					return &Zod{origin: at, Type: "number"}
				case *Bool:
					return &Zod{origin: at, Type: "boolean"}
				}
			}
			return &Zod{origin: at}
		}
		return &Zod{origin: at} // union, any, unknown, …: no single JSON type
	}
	z := *recv.(*Zod)
	z.origin = at
	switch method {
	case "int":
		if z.Type == "number" {
			z.Type = "integer"
		}
	case "regex":
		if len(args) >= 1 {
			if re, ok := args[0].(*RegExp); ok {
				z.Pattern = re.Pattern
			}
		}
	case "describe":
		if len(args) == 1 {
			if s, ok := args[0].(*String); ok {
				z.Description = s.V
			}
		}
	case "array":
		z = Zod{origin: at, Type: "array"}
	case "or", "and", "transform", "pipe", "preprocess":
		z = Zod{origin: at}
	}
	return &z
}

// Vocabulary reads a Zod vocabulary module: an exported object whose values
// are Zod schemas (TOOL_TYPES by convention; the largest such object
// otherwise) names the types, and an exported Set of names (INJECTION_SAFE)
// marks the injection-safe ones. The result is a JSON Schema document of
// $defs, as a JSON vocabulary file would hold it (SPEC §2.3).
func (p *Program) Vocabulary(rel string, src []byte) ([]byte, error) {
	env, err := p.Module(rel, src)
	if err != nil {
		return nil, err
	}
	var types *Object
	var safe *Set
	best := 0
	for _, name := range env.Exports() {
		switch v := p.Export(env, name).(type) {
		case *Object:
			n := 0
			for _, k := range v.Keys {
				if _, ok := v.Vals[k].(*Zod); ok {
					n++
				}
			}
			if name == "TOOL_TYPES" {
				n += 1 << 30
			}
			if n > best {
				best, types = n, v
			}
		case *Set:
			if safe == nil || name == "INJECTION_SAFE" {
				safe = v
			}
		}
	}
	if types == nil {
		return nil, fmt.Errorf("no exported object of Zod schemas (TOOL_TYPES) in %s", rel)
	}
	safeNames := map[string]bool{}
	if safe != nil {
		for _, it := range safe.Items {
			if s, ok := it.(*String); ok {
				safeNames[s.V] = true
			}
		}
	}
	defs := map[string]map[string]any{}
	for _, k := range types.Keys {
		z, ok := types.Vals[k].(*Zod)
		if !ok {
			continue
		}
		d := map[string]any{}
		if z.Type != "" {
			d["type"] = z.Type
		}
		if z.Pattern != "" {
			d["pattern"] = z.Pattern
		}
		if len(z.Enum) > 0 {
			d["enum"] = z.Enum
		}
		if z.Description != "" {
			d["description"] = z.Description
		}
		if safeNames[k] {
			d["x-injection-safe"] = true
		}
		defs[k] = d
	}
	return json.Marshal(map[string]any{"$defs": defs})
}
