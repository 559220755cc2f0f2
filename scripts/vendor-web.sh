#!/usr/bin/env bash
# Builds the page's vendored third-party bundles from their lock files:
#
#   web/vendor/graphiql (package.json, package-lock.json, graphiql.jsx)
#     → web/assets/vendor/graphiql/{graphiql.js,graphiql.css,LICENSES.txt}
#   web/vendor/pictures (bpmn-js, bpmn-auto-layout, elkjs; bpmn.js, elk.js)
#     → web/assets/vendor/pictures/{bpmn.js,bpmn.css,elk.js,LICENSES.txt}
#
# The bundles are checked in: a fresh clone builds and serves them with Go
# alone. Run this after changing a package.json (then `npm install` there
# to refresh its lock file). With --check it builds into a temporary
# directory and fails when the result differs from what is checked in
# (scripts/test.sh runs that when npm is present), so a bundle can only
# come from its lock file. esbuild's output is deterministic for the same
# inputs and version; the version is pinned in each lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
[[ ${1:-} == --check ]] && check=1

out=web/assets/vendor
if ((check)); then
  work=$(mktemp -d /tmp/skillgraph-vendor.XXXXXX)
  trap 'rm -rf "$work"' EXIT
  out=$work/out
fi

build() { # build NAME ENTRY...: one bundle per entry, named after it
  local name=$1 src=web/vendor/$1 dir
  shift
  local entries=("$@")
  dir=$src
  if ((check)); then
    # A clean copy of the sources: the check never reads or writes the
    # tree's own node_modules.
    dir=$work/src/$name
    mkdir -p "$dir"
    cp "$src/package.json" "$src/package-lock.json" "${entries[@]/#/$src/}" "$dir/"
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  mkdir -p "$out/$name"
  local dest
  dest=$(cd "$out/$name" && pwd)
  (cd "$dir" && ./node_modules/.bin/esbuild "${entries[@]}" --bundle --format=esm --minify \
    --target=es2020 --charset=utf8 --legal-comments=none --log-level=warning \
    --define:process.env.NODE_ENV='"production"' --define:global=globalThis \
    --metafile=meta.json --outdir="$dest")
  # One licence file: every npm package the bundle holds, with its licence
  # text, sorted by name (the metafile lists the inputs).
  (cd "$dir" && node -e '
    const fs = require("fs"), path = require("path");
    const meta = JSON.parse(fs.readFileSync("meta.json", "utf8"));
    const pkgs = new Set();
    for (const f of Object.keys(meta.inputs)) {
      const m = f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g);
      if (m) pkgs.add(m[m.length - 1].replace(/^node_modules\//, "").replace(/\/$/, ""));
    }
    let text = "Third-party software bundled in this directory, built by scripts/vendor-web.sh from web/vendor/" + process.argv[1] + "/package-lock.json.\n";
    for (const p of [...pkgs].sort()) {
      const dir = path.join("node_modules", p);
      const pj = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
      const lic = fs.readdirSync(dir).filter((f) => /^(licen[sc]e|copying)/i.test(f)).sort()[0];
      text += "\n==== " + p + "@" + pj.version + " (" + (pj.license || "see below") + ")\n\n";
      text += lic ? fs.readFileSync(path.join(dir, lic), "utf8").trim() + "\n" : "(no licence file in the package; its package.json says " + (pj.license || "nothing") + ")\n";
    }
    fs.writeFileSync(process.argv[2], text);
  ' "$name" "$dest/LICENSES.txt")
  rm -f "$dir/meta.json"
}

build graphiql graphiql.jsx
build pictures bpmn.js elk.js

if ((check)); then
  if ! diff -r "$out" web/assets/vendor >/dev/null; then
    echo "web/assets/vendor differs from a rebuild of web/vendor/*/package-lock.json:" >&2
    diff -rq "$out" web/assets/vendor >&2 || true
    echo "run scripts/vendor-web.sh and commit the result" >&2
    exit 1
  fi
  echo "web/assets/vendor is the rebuild of its lock files"
else
  ls -l web/assets/vendor/*/
fi
