#!/usr/bin/env bash
# make demo: the main jobs on the shipped examples, with real output.
set -u
BIN=${1:-.venv/bin}
run() { printf '\n$ %s\n' "$*"; "$@"; }
export PATH="$BIN:$PATH"
run kubectl-dgd validate manifests/examples/
for f in manifests/examples/status/*.yaml; do
  [ -e "$f" ] && run kubectl-dgd status -f "$f"
done
[ -e manifests/examples/vllm-agg.yaml ] && run kubectl-dgd render -f manifests/examples/vllm-agg.yaml | head -60
exit 0
