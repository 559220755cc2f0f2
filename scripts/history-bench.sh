#!/usr/bin/env bash
# Side-by-side benchmark of `skillgraph history` (issue 24): one run of the
# walk over a generated git repository against the baseline a script would
# run without it — for each commit a checkout (`git worktree add`) and
# `skillgraph coverage --corpus` of it — both timed with /usr/bin/time
# (wall seconds, CPU seconds user + system, maximum RSS) on the same
# repository in one run. On a shared machine the CPU seconds are the
# steadier comparison: the wall time follows the load.
#
#   scripts/history-bench.sh                 # 1 000 skills, 1 000 commits, 20 sampled checkouts
#   SKILLS=200 COMMITS=100 SAMPLE=10 scripts/history-bench.sh
#
# The repository: a `skillgraph gen` corpus (seed 1) in its first commit,
# then COMMITS-1 commits each editing one skill file (every seventh removing
# one). The baseline is sampled: SAMPLE commits spread evenly over the
# history are checked out and read, and the mean per commit is multiplied
# by COMMITS (a checkout + full read costs about the same at every commit
# of such a history). Prints one Markdown table row for docs/performance.md
# and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
SKILLS=${SKILLS:-1000}
COMMITS=${COMMITS:-1000}
SAMPLE=${SAMPLE:-20}
work=$(mktemp -d /tmp/skillgraph-history-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
bin=$work/skillgraph
go build -o "$bin" ./cmd/skillgraph
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# The repository (setup; not timed in the comparison).
repo=$work/repo
git init -q "$repo"
git -C "$repo" config user.email bench@example.invalid
git -C "$repo" config user.name bench
git -C "$repo" config commit.gpgsign false
"$bin" gen --skills "$SKILLS" --seed 1 "$repo/corpus" >/dev/null
git -C "$repo" add -A
git -C "$repo" commit -qm generated
mapfile -t md < <(cd "$repo" && find corpus -path '*skills*' -name '*.md' | LC_ALL=C sort)
start=$(date +%s)
for ((i = 1; i < COMMITS; i++)); do
  f=$repo/${md[$(( (i * 7919) % ${#md[@]} ))]}
  if ((i % 7 == 0)); then
    rm -f "$f"
  elif [[ -f $f ]]; then
    printf '\nEdited in commit %d.\n' "$i" >>"$f"
  fi
  git -C "$repo" add -A corpus
  git -C "$repo" commit -qm "edit $i" --allow-empty
done
echo "repository: $SKILLS skills, $COMMITS commits, built in $(( $(date +%s) - start )) s" >&2

# The walk: every commit, one process.
/usr/bin/time -f '%e %U %S %M' -o "$work/walk.time" "$bin" history --corpus "$repo/corpus" --format csv >"$work/history.csv"
points=$(( $(wc -l <"$work/history.csv") - 1 ))
read -r walk_s walk_u walk_sys walk_kb <"$work/walk.time"
walk_cpu=$(awk -v u="$walk_u" -v s="$walk_sys" 'BEGIN { print u + s }')
[[ $points == "$COMMITS" ]] || { echo "history gave $points points, want $COMMITS" >&2; exit 1; }

# The baseline: SAMPLE commits spread over the history, each checked out
# and read by `coverage`, one process each (as a script would).
mapfile -t hashes < <(git -C "$repo" rev-list --first-parent --reverse HEAD)
total=0 cpu=0 peak=0
for ((k = 0; k < SAMPLE; k++)); do
  h=${hashes[$(( k * (${#hashes[@]} - 1) / (SAMPLE > 1 ? SAMPLE - 1 : 1) ))]}
  wt=$work/wt
  /usr/bin/time -f '%e %U %S %M' -o "$work/co.time" sh -c '
    git -C "$1" worktree add -q --detach "$2" "$3" &&
    "$4" coverage --corpus "$2/corpus" --format json >/dev/null' _ "$repo" "$wt" "$h" "$bin"
  read -r s u sys kb <"$work/co.time"
  git -C "$repo" worktree remove --force "$wt"
  total=$(awk -v a="$total" -v b="$s" 'BEGIN { print a + b }')
  cpu=$(awk -v a="$cpu" -v u="$u" -v s="$sys" 'BEGIN { print a + u + s }')
  ((kb > peak)) && peak=$kb
done
per=$(awk -v t="$total" -v n="$SAMPLE" 'BEGIN { printf "%.2f", t / n }')
base_s=$(awk -v p="$per" -v c="$COMMITS" 'BEGIN { printf "%.0f", p * c }')
ratio=$(awk -v b="$base_s" -v w="$walk_s" 'BEGIN { printf "%.0f", b / w }')
cpu_per=$(awk -v t="$cpu" -v n="$SAMPLE" 'BEGIN { printf "%.2f", t / n }')
cpu_ratio=$(awk -v p="$cpu_per" -v c="$COMMITS" -v w="$walk_cpu" 'BEGIN { printf "%.0f", p * c / w }')
walk_ms=$(awk -v w="$walk_s" -v c="$COMMITS" 'BEGIN { printf "%.0f", 1000 * w / c }')
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "| $SKILLS skills | $COMMITS | $walk_s s ($walk_ms ms/commit; CPU $walk_cpu s), max RSS $((walk_kb / 1024)) MB | $per s/commit (CPU $cpu_per s) over $SAMPLE sampled checkouts, max RSS $((peak / 1024)) MB; ≈ $base_s s for $COMMITS | ≈ ${ratio}× wall, ≈ ${cpu_ratio}× CPU |"
echo "load average before: $load_before; after: $load_after ($(nproc) cores)"
