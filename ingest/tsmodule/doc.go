// Package tsmodule reads TypeScript and JavaScript Tool modules and Zod type
// vocabularies statically (SPEC §2.2, §2.3): it never runs them.
//
// A module is stripped of its types by esbuild's transform (TypeScript to
// JavaScript, imports as require calls, with a source map back to the
// module's own lines), parsed by goja's parser into an AST, and a bounded
// evaluator of pure expressions walks that AST. The evaluator knows
// literals, template literals, string concatenation, const bindings,
// arrow functions with expression bodies (or bodies of declarations and one
// return), .map of such a function over a known array, member access,
// spreads, conditionals and imports of sibling modules of the same corpus.
// Everything else — any other call, any statement with effects, eval,
// require of a package, getters, reassigned bindings — is unknown. There is
// no JavaScript runtime here: no code of the module is ever executed, no
// import is run, and no file is read except the sibling modules the caller's
// loader hands over from inside the corpus root.
package tsmodule
