package record

import "testing"

func TestContractExternal(t *testing.T) {
	for ref, want := range map[string]bool{
		"https://x.example/c.json":     true,
		"http://x.example/c.json":      true,
		"https://":                     true,
		"schemas/skills/a/input.json":  false,
		"":                             false,
		"httpx://x":                    false,
		"./https://x":                  false,
		"HTTPS://x.example/upper-case": false, // as written; SPEC names https://
	} {
		if got := ContractExternal(ref); got != want {
			t.Errorf("ContractExternal(%q) = %v", ref, got)
		}
	}
}
