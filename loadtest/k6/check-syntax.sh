#!/usr/bin/env bash
# k6 is not installable everywhere; this checks that the scripts are valid ES modules with node.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for script in *.js; do
  cp "$script" "$tmp/${script%.js}.mjs"
  node --check "$tmp/${script%.js}.mjs"
  echo "ok  $script"
done
