#!/usr/bin/env bash
# k6 is not installable everywhere; this checks that the scripts are valid ES modules with node.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=scripts/lib.sh
. ../../scripts/lib.sh
tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'
for script in *.js; do
  cp "$script" "$tmp/${script%.js}.mjs"
  node --check "$tmp/${script%.js}.mjs"
  echo "ok  $script"
done
