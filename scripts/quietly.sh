#!/usr/bin/env bash
# quietly.sh WHAT COMMAND...: run COMMAND with its output kept back; shown only if it fails,
# under one line naming WHAT, with COMMAND's exit status. (make demo's install: pip and
# setuptools print banners that are not the demo.)
set -u
what=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
  echo "$what failed (exit $status):" >&2
  cat "$log" >&2
fi
exit "$status"
