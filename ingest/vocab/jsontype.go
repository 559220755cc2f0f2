package vocab

// jsonType reads a definition's JSON type: "type" as a string, or the first
// non-"null" entry of a type list, or else the type shared by every value of
// "const"/"enum". It returns "" when the definition does not say.
func jsonType(def map[string]any) string {
	switch t := def["type"].(type) {
	case string:
		return t
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
		return ""
	}
	if c, ok := def["const"]; ok {
		return valueType(c)
	}
	if vals, ok := def["enum"].([]any); ok && len(vals) > 0 {
		first := valueType(vals[0])
		for _, e := range vals[1:] {
			if valueType(e) != first {
				return ""
			}
		}
		return first
	}
	return ""
}

// valueType is the JSON type of a decoded JSON value ("" for null).
func valueType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return ""
}
