#!/usr/bin/env bash
# Builds (or finds cached) the real control plane the tests run: kube-apiserver,
# kube-controller-manager, kube-scheduler (tools/k8s), etcd (tools/etcd) and kwok (tools/kwok),
# from the Go module proxy. Binaries go outside the work tree, under a directory keyed by the
# versions, the Go release and the go.sum files, so a fresh clone (CI's) finds them again.
# Prints the bin directory on stdout; progress and timings go to stderr.
#   --find           only look: print the directory if every binary is there, else exit 1
#   KDGD_K8S_CACHE   the cache root (default ~/.cache/kubectl-dgd/k8s)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
tools="$here/tools"
command -v go >/dev/null 2>&1 || { echo "build.sh: no Go toolchain on PATH" >&2; exit 3; }
export GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0
modver() { (cd "$tools/$1" && go list -m -f '{{.Version}}' "$2"); }
k8s=$(modver k8s k8s.io/kubernetes)
etcd=$(modver etcd go.etcd.io/etcd/server/v3)
kwok=$(modver kwok sigs.k8s.io/kwok)
# The control plane's own modules only: another module under tools/ (argocd-lua) must not
# change this key and send every machine into a rebuild.
files=()
for ext in mod sum; do for m in etcd k8s kwok; do files+=("$tools/$m/go.$ext"); done; done
sums=$(cat "${files[@]}" | sha256sum | cut -c1-12)
key="k8s${k8s#v}-etcd${etcd#v}-kwok${kwok#v}-$(go env GOVERSION)-$sums"
out="${KDGD_K8S_CACHE:-$HOME/.cache/kubectl-dgd/k8s}/$key/bin"
names=(kube-apiserver kube-controller-manager kube-scheduler etcd kwok)
complete=1
for n in "${names[@]}"; do [ -x "$out/$n" ] || complete=0; done
if [ "$complete" = 1 ]; then echo "$out"; exit 0; fi
[ "${1:-}" = "--find" ] && exit 1

mkdir -p "$out"
tmp="$out.part.$$"
rm -rf "$tmp" && mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
minor=${k8s#v1.}; minor=${minor%%.*}
# The version kube-apiserver reports at /version (kubectl version and server-version checks
# read it): without these it says v0.0.0-master.
ld="-s -w -buildid="
for kv in "gitVersion=$k8s" gitMajor=1 "gitMinor=$minor" gitTreeState=clean "buildDate=1970-01-01T00:00:00Z"; do
  ld="$ld -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
step() { local t0=$SECONDS; echo "build.sh: $1 ..." >&2; shift; "$@"; echo "build.sh: done in $((SECONDS - t0)) s" >&2; }
step "etcd $etcd" bash -c "cd '$tools/etcd' && go build -trimpath -o '$tmp/etcd' go.etcd.io/etcd/server/v3"
step "kwok $kwok" bash -c "cd '$tools/kwok' && go build -trimpath -o '$tmp/kwok' sigs.k8s.io/kwok/cmd/kwok"
step "kubernetes $k8s (apiserver, controller-manager, scheduler)" bash -c "cd '$tools/k8s' && go build -trimpath -tags selinux,notest -ldflags '$ld' -o '$tmp/' k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler"
# Moved in only when every binary built: a half-built cache is never taken for a whole one.
for n in "${names[@]}"; do mv "$tmp/$n" "$out/$n"; done
echo "$out"
