#!/usr/bin/env bash
# Runs the examples of the README and of every page of the documentation site, as a reader would:
# each file top to bottom, in one shell, against the jar freshly started on a new embedded database
# (the README's first run), and fails on the first example that breaks.
#
#   .ci/doc-examples.sh [target/vfps.jar] [file.md ...]
#
# Without files: README.md, then the pages of mkdocs.yml's nav in its order. Each file gets a
# service of its own, so a page's examples need nothing from another page.
#
# The code blocks, by their fence (```sh no-run and ``` { .sh .no-run } are the same):
#   ```sh           run, in one shell, in order, so variables carry from block to block; set -e,
#                   and curl fails on an HTTP error status (--fail-with-body)
#   ```sh error     run the same way, but the answers are errors on purpose: no command's status
#                   is checked (the output below the block is)
#   ```sh no-run    shown only: builds, deployments, containers, load tests, other databases
#   ```json         an output: when it follows a run block directly (blank lines only between),
#                   the block's output must be the same JSON values with the same shape (keys,
#                   nesting, array lengths, value types), whatever the values
#   ``` (no name)   an output too; when it shows an HTTP response (curl -i), the status code and
#                   the shape of a JSON body are compared
#   anything else   not run, not compared
# Only fences at the start of a line count. Needs java, curl, grpcurl and jq, and the ports 8080,
# 8081, 8082 and 8083 (the embedded S3 store of CSV jobs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar=$(realpath "${1:-$root/target/vfps.jar}")
shift || true
cd "$root"
if [ $# -gt 0 ]; then
  files=("$@")
else
  # the nav's pages: lines such as "      - gRPC: api/grpc.md"
  mapfile -t pages < <(sed -n 's/^ *- [^:]*: *\([^ ]*\.md\) *$/docs\/\1/p' mkdocs.yml)
  files=(README.md "${pages[@]}")
fi

java=java
if [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
for tool in curl grpcurl jq; do
  command -v "$tool" >/dev/null || { echo "doc-examples: $tool is needed (see README)" >&2; exit 1; }
done
for port in 8080 8081 8082 8083; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "doc-examples: port $port is in use; the examples need 8080, 8081, 8082 and 8083" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/vfps-docs.XXXXXX)
pid=""
file=""
block_line=""
block_output=""
stop_service() {
  # the service exits 143 on SIGTERM, which is no failure here
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; fi
  pid=""
}
# the runner's own output: a block that fails under set -e exits the shell while its output is
# still redirected to its file
exec 3>&1 4>&2
finish() {
  status=$?
  set +e
  exec 1>&3 2>&4
  if [ "$status" -ne 0 ] && [ -n "$block_line" ]; then
    if [ -n "$block_output" ] && [ -f "$block_output" ]; then cat "$block_output"; echo; fi
    echo "doc-examples: the example at $file:$block_line failed (exit $status)" >&2
    echo "--- the service's log (last 40 lines)" >&2
    tail -n 40 "$work/vfps.log" >&2
  fi
  stop_service
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT

start_service() {
  rm -rf "$work/postgres" "$work/s3"
  Database__Embedded__DataDirectory="$work/postgres" S3__Embedded__DataDirectory="$work/s3" \
    "$java" -jar "$jar" >"$work/vfps.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 180); do
    if curl -fsS -o /dev/null localhost:8080/readyz 2>/dev/null \
      && grpcurl -plaintext localhost:8081 grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING; then
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || { cat "$work/vfps.log" >&2; echo "vfps did not start" >&2; exit 1; }
    sleep 1
  done
  echo "vfps did not start in time" >&2
  exit 1
}

# the blocks of $1: $work/blocks/N holds block N; $work/blocks/list lists
# "N|line|name|options|adjacent", where adjacent is 1 when only blank lines stand between the
# previous block and this one; a fence "{ .sh .no-run }" reads as "sh no-run"
split_blocks() {
  rm -rf "$work/blocks"
  mkdir "$work/blocks"
  awk -v dir="$work/blocks" '
    BEGIN { n = 0; inside = 0; text = 1 }
    /^```/ && !inside {
      n++; inside = 1
      spec = substr($0, 4); gsub(/[{}]/, " ", spec); gsub(/(^| )\./, " ", spec)
      sub(/^ +/, "", spec); sub(/ +$/, "", spec); gsub(/ +/, " ", spec)
      name = spec; sub(/ .*/, "", name)
      options = (index(spec, " ") ? substr(spec, index(spec, " ") + 1) : "")
      printf "%d|%d|%s|%s|%d\n", n, NR, name, options, (text ? 0 : 1) > (dir "/list")
      printf "" > (dir "/" n)
      next
    }
    /^```[ ]*$/ && inside { inside = 0; text = 0; next }
    inside { print > (dir "/" n); next }
    /[^ \t]/ { text = 1 }
  ' "$1"
  touch "$work/blocks/list"
}

shape() { jq -cS 'walk(if type == "object" or type == "array" then . else type end)'; }

# compares an output block ($1) with what the previous run block printed ($2)
compare() {
  local expected=$1 actual=$2 name=$3
  if [ "$name" = json ]; then
    if ! diff <(shape <"$expected") <(shape <"$actual") >"$work/diff" 2>&1; then
      echo "doc-examples: the output differs in shape from $file's (< page, > now):" >&2
      cat "$work/diff" >&2
      return 1
    fi
    compared=$((compared + 1))
  elif head -n 1 "$expected" | grep -q '^HTTP/'; then
    local want got
    want=$(head -n 1 "$expected" | awk '{print $2}')
    got=$(head -n 1 "$actual" | tr -d '\r' | awk '{print $2}')
    if [ "$want" != "$got" ]; then
      echo "doc-examples: $file shows status $want, the service answered $got" >&2
      return 1
    fi
    # the bodies, after the first blank line, when the page's is JSON
    if sed '1,/^$/d' "$expected" | jq -e . >/dev/null 2>&1; then
      diff <(sed '1,/^$/d' "$expected" | shape) <(tr -d '\r' <"$actual" | sed '1,/^$/d' | shape) \
        >"$work/diff" 2>&1 || { echo "doc-examples: the body differs in shape:" >&2; cat "$work/diff" >&2; return 1; }
    fi
    compared=$((compared + 1))
  fi
}

total_ran=0 total_skipped=0 total_compared=0
for file in "${files[@]}"; do
  split_blocks "$file"
  if ! awk -F'|' '$3 ~ /^(sh|bash|shell)$/ && (" " $4 " ") !~ / no-run / { found = 1 }
      END { exit !found }' "$work/blocks/list"; then
    echo "== $file: nothing to run"
    continue
  fi
  echo "== $file: starting $jar on a new embedded database"
  start_service
  ran=0 skipped=0 compared=0
  last_output=""
  while IFS='|' read -r n line name options adjacent; do
    case "$name" in
      sh | bash | shell)
        last_output=""
        if [[ " $options " == *" no-run "* ]]; then
          skipped=$((skipped + 1))
          continue
        fi
        expect_error=false
        if [[ " $options " == *" error "* ]]; then
          expect_error=true
          unset -f curl
        else
          curl() { command curl --fail-with-body "$@"; }
        fi
        echo
        echo "== $file:$line"
        sed 's/^/$ /' "$work/blocks/$n"
        block_line=$line
        block_output=$work/blocks/$n.out
        # sourced, not run in a subshell: what a block assigns is there for the next one
        # shellcheck disable=SC1090
        if $expect_error; then
          source "$work/blocks/$n" >"$block_output" 2>&1 || true
        else
          source "$work/blocks/$n" >"$block_output" 2>&1
        fi
        cat "$block_output"
        # curl prints no newline after a body
        if [ -n "$(tail -c 1 "$block_output")" ]; then echo; fi
        block_output=""
        last_output=$work/blocks/$n.out
        ran=$((ran + 1))
        ;;
      *)
        if [ -n "$last_output" ] && [ "$adjacent" = 1 ]; then
          block_line=$line
          compare "$work/blocks/$n" "$last_output" "$name"
        fi
        last_output=""
        ;;
    esac
  done <"$work/blocks/list"
  block_line=""
  unset -f curl
  stop_service
  echo "== $file: $ran blocks run, $compared outputs compared, $skipped not run (no-run)"
  total_ran=$((total_ran + ran)) total_skipped=$((total_skipped + skipped))
  total_compared=$((total_compared + compared))
done

echo
echo "doc-examples: ${#files[@]} files, $total_ran blocks run, $total_compared outputs compared, $total_skipped blocks not run (no-run)"
