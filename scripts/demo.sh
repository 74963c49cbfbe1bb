#!/usr/bin/env bash
# make demo: the main jobs on the shipped examples, with their real output. Each command is
# shown as a user types it, `kubectl dgd ...`, before its output: run through kubectl's own
# plugin lookup when a kubectl is at hand (on PATH, the venv's from the dev extras, or beside
# the control plane's binaries), else by kubectl-dgd itself, the program that lookup runs.
set -u
BIN=${1:-.venv/bin}
export PATH="$BIN:$PATH" NO_COLOR=1

kubectl=$(command -v kubectl || true)
if [ -z "$kubectl" ]; then
  planes=$(bash scripts/control-plane/build.sh --find 2>/dev/null || true)
  [ -n "$planes" ] && [ -x "$planes/kubectl" ] && kubectl="$planes/kubectl"
fi
if [ -n "$kubectl" ]; then
  dgd() { "$kubectl" dgd "$@"; }
else
  echo "(no kubectl found: each \`kubectl dgd\` below runs kubectl-dgd, which kubectl would run)"
  dgd() { kubectl-dgd "$@"; }
fi

# run ARGS...: show `$ kubectl dgd ARGS`, run it, show its exit status.
run() { printf '\n$ kubectl dgd %s\n' "$*"; dgd "$@"; printf '(exit %s)\n' "$?"; }

run version --client
run validate --lpx manifests/examples/*.yaml
run validate manifests/examples/invalid/
run status -f manifests/examples/status/rolling-update-in-progress.yaml
run status -f manifests/examples/status/sequential-restart-in-progress.yaml -o wide

printf '\n$ kubectl dgd render -f manifests/examples/vllm-agg.yaml --provider component | head -40\n'
dgd render -f manifests/examples/vllm-agg.yaml --provider component | head -40

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp manifests/examples/status/healthy.yaml "$scratch/graph.yaml"
printf '\n$ cp manifests/examples/status/healthy.yaml %s/graph.yaml\n' "$scratch"
run restart -f "$scratch/graph.yaml" --parallel --id demo-1 --dry-run
exit 0
