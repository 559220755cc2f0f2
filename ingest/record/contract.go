package record

import "strings"

// ContractExternal reports whether a skill's contract reference (its
// `input:` or `output:` as written) is an http(s) IRI rather than a path of
// the instance: such a contract is never fetched, so it is never checked
// (SPEC §5.2, contract-external). The encoder (which IRI to mint) and the
// contract check ask this one function.
func ContractExternal(ref string) bool {
	return strings.HasPrefix(ref, "https://") || strings.HasPrefix(ref, "http://")
}
