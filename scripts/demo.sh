#!/usr/bin/env bash
# make demo: the main jobs on the shipped examples, with their real output.
set -u
BIN=${1:-.venv/bin}
export PATH="$BIN:$PATH" NO_COLOR=1
run() { printf '\n$ %s\n' "$*"; "$@"; printf '(exit %s)\n' "$?"; }

run kubectl-dgd validate --lpx manifests/examples/*.yaml
run kubectl-dgd validate manifests/examples/invalid/
run kubectl-dgd status -f manifests/examples/status/rolling-update-in-progress.yaml
run kubectl-dgd status -f manifests/examples/status/sequential-restart-in-progress.yaml -o wide

printf '\n$ kubectl-dgd render -f manifests/examples/vllm-agg.yaml --provider component | head -40\n'
kubectl-dgd render -f manifests/examples/vllm-agg.yaml --provider component | head -40

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp manifests/examples/status/healthy.yaml "$scratch/graph.yaml"
run kubectl-dgd restart -f "$scratch/graph.yaml" --parallel --id demo-1 --dry-run
exit 0
