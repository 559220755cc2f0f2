#!/usr/bin/env bash
# Builds the release binaries of skillgraph: static (CGO_ENABLED=0),
# reproducible paths (-trimpath), for linux, darwin and windows on amd64 and
# arm64, each in an archive with its checksum in SHA256SUMS. The binaries are
# never committed; a release uploads dist/ (the names action.yml downloads).
#
#   scripts/release.sh VERSION [OUT]        # e.g. scripts/release.sh 0.9.0
#   TARGETS="linux/amd64" scripts/release.sh 0.9.0   # a subset
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: release.sh VERSION [OUT]}
out=${2:-dist}
targets=${TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"}
rm -rf "$out" && mkdir -p "$out"
for t in $targets; do
  os=${t%/*} arch=${t#*/}
  exe=skillgraph; [[ $os == windows ]] && exe=skillgraph.exe
  dir=$(mktemp -d)
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w" -o "$dir/$exe" ./cmd/skillgraph
  cp README.md "$dir/"; [[ -f LICENSE ]] && cp LICENSE "$dir/"
  name="skillgraph_${version}_${os}_${arch}"
  if [[ $os == windows ]]; then
    (cd "$dir" && zip -q -r "$OLDPWD/$out/$name.zip" .)
  else
    tar -C "$dir" -czf "$out/$name.tar.gz" .
  fi
  rm -rf "$dir"
  echo "built $name"
done
(cd "$out" && sha256sum skillgraph_* > SHA256SUMS)
cat "$out/SHA256SUMS"
