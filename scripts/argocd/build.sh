#!/usr/bin/env bash
# Builds (or finds cached) the Go programs the Argo CD tests run: tools/argocd-lua, Argo CD's
# Lua VM configuration on gopher-lua (tools/argocd-lua/main.go says why it is not Argo CD's own
# util/lua). Binaries go outside the work tree, under a directory keyed by the Go release and
# the module files, so a fresh clone (CI's) finds them again.
# Prints the bin directory on stdout; progress and timings go to stderr.
#   --cached          print the directory only if already built (exit 1 otherwise); never builds
#   KDGD_ARGOCD_CACHE the cache root (default ~/.cache/kubectl-dgd/argocd)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
src="$here/tools/argocd-lua"
command -v go >/dev/null 2>&1 || { echo "build.sh: no Go toolchain on PATH" >&2; exit 3; }
export GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0
sums=$(cat "$src"/go.mod "$src"/go.sum "$src"/*.go | sha256sum | cut -c1-12)
out="${KDGD_ARGOCD_CACHE:-$HOME/.cache/kubectl-dgd/argocd}/$(go env GOVERSION)-$sums/bin"
if [ -x "$out/argocd-lua" ]; then echo "$out"; exit 0; fi
if [ "${1:-}" = "--cached" ]; then exit 1; fi
mkdir -p "$out"
tmp="$out.part.$$"
rm -rf "$tmp" && mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
t0=$SECONDS
echo "build.sh: argocd-lua ..." >&2
(cd "$src" && go build -trimpath -ldflags '-s -w -buildid=' -o "$tmp/argocd-lua" .)
echo "build.sh: done in $((SECONDS - t0)) s" >&2
mv "$tmp/argocd-lua" "$out/argocd-lua"
echo "$out"
