#!/usr/bin/env bash
# Records what skillgraph answers on a set of corpora (check JSON, coverage
# --workflows JSON, N-Quads export) into a folder, so that two builds can be
# compared byte for byte (a redesign that must not change behaviour, or a
# change whose effect on real corpora must be read before it lands).
#
#   scripts/same-answers.sh OUTDIR [BINARY]      # record (default binary: go run)
#   diff -r OUTDIR_BEFORE OUTDIR_AFTER           # compare
#   scripts/same-answers.sh OUTDIR BINARY BEFORE # record, then compare with BEFORE (exit 1 on a difference)
#
# Corpora: every folder of ../shared/realworld when it exists, the bundled
# example, and a generated 1k-skill corpus (skillgraph gen, fixed seed).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: same-answers.sh OUTDIR [BINARY]}
bin=${2:-}
before=${3:-}
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
# Each command's exit status is recorded too (in NAME.status): a build that
# fails where the other answered would otherwise compare as two empty files.
for c in "${corpora[@]}"; do
  name=$(basename "$c")
  st=0; "$bin" check --corpus "$c" --format json >"$out/$name.check.json" 2>/dev/null || st=$?
  echo "check $st" >"$out/$name.status"
  st=0; "$bin" coverage --corpus "$c" --format json --workflows >"$out/$name.coverage.json" 2>/dev/null || st=$?
  echo "coverage $st" >>"$out/$name.status"
  # The findings' paths are relative to the working directory, so the
  # generated corpus's are under its temporary folder: a fixed word too.
  if [[ "$c" == "$gen/"* ]]; then
    sed -i "s#$(basename "$gen")#GEN#g" "$out/$name.check.json" "$out/$name.coverage.json"
  fi
  # The export names the corpus by its absolute root (sg:corpusRoot): the
  # generated corpus's temporary folder is replaced by a fixed word. Its
  # quads come in no fixed order, and mtimes are the checkout's: sorted,
  # without mtimes.
  st=0; "$bin" export --corpus "$c" 2>/dev/null >"$out/$name.raw.nq" || st=$?
  echo "export $st" >>"$out/$name.status"
  # The generated corpus's declaration digest hashes that root as well (a
  # moved corpus rewrites its corpusRoot), so it is left out for it alone.
  drop='ns#mtime>'
  [[ "$c" == "$gen/"* ]] && drop='ns#mtime>|#source/harness.json> <https://w3id.org/skillgraph/ns#digest>'
  sed "s#$gen#GEN#g" "$out/$name.raw.nq" | grep -Ev "$drop" | LC_ALL=C sort >"$out/$name.nq" || true
  rm -f "$out/$name.raw.nq"
done
rm -rf "$gen"
echo "recorded ${#corpora[@]} corpora in $out"
if [[ -n "$before" ]]; then
  if diff -r "$before" "$out" >/dev/null; then
    echo "same answers as $before"
  else
    diff -r "$before" "$out" | head -40
    echo "DIFFERENT answers from $before" >&2
    exit 1
  fi
fi
