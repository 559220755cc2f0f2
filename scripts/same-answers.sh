#!/usr/bin/env bash
# Records what skillgraph answers on a set of corpora (check JSON, coverage
# --workflows JSON, N-Quads export) into a folder, so that two builds can be
# compared byte for byte (a redesign that must not change behaviour, or a
# change whose effect on real corpora must be read before it lands).
#
#   scripts/same-answers.sh OUTDIR [BINARY]      # record (default binary: go run)
#   diff -r OUTDIR_BEFORE OUTDIR_AFTER           # compare
#
# Corpora: every folder of ../shared/realworld when it exists, the bundled
# example, and a generated 1k-skill corpus (skillgraph gen, fixed seed).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: same-answers.sh OUTDIR [BINARY]}
bin=${2:-}
if [[ -z "$bin" ]]; then
  bin=$(mktemp -d)/skillgraph
  go build -o "$bin" ./cmd/skillgraph
fi
mkdir -p "$out"
gen=$(mktemp -d)
"$bin" gen --skills 1000 --seed 7 "$gen/gen1k" >/dev/null
corpora=(examples/harness "$gen/gen1k")
if [[ -d ../shared/realworld ]]; then
  for d in ../shared/realworld/*/; do corpora+=("${d%/}"); done
fi
for c in "${corpora[@]}"; do
  name=$(basename "$c")
  "$bin" check --corpus "$c" --format json >"$out/$name.check.json" 2>/dev/null || true
  "$bin" coverage --corpus "$c" --format json --workflows >"$out/$name.coverage.json" 2>/dev/null || true
  # The export names the corpus by its absolute root (sg:corpusRoot): the
  # generated corpus's temporary folder is replaced by a fixed word. Its
  # quads come in no fixed order, and mtimes are the checkout's: sorted,
  # without mtimes.
  "$bin" export --corpus "$c" 2>/dev/null | sed "s#$gen#GEN#g" | grep -v 'ns#mtime>' | LC_ALL=C sort >"$out/$name.nq" || true
done
rm -rf "$gen"
echo "recorded ${#corpora[@]} corpora in $out"
