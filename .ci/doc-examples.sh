#!/usr/bin/env bash
# Runs the README's examples top to bottom, as a reader would, against the jar freshly started on a
# new embedded database (the README's first run), and fails on the first example that breaks.
#
#   .ci/readme-examples.sh [target/vfps.jar]
#
# The README's code blocks, by their fence:
#   ```sh           run, in one shell, in order, so variables carry from block to block; set -e,
#                   and curl fails on an HTTP error status (--fail-with-body)
#   ```sh error     run the same way, but the answers are errors on purpose: curl's status is not
#                   checked (the output below the block is)
#   ```sh no-run    shown only: builds, deployments, containers, load tests, other databases
#   ```json         an output: when it follows a run block directly (blank lines only between),
#                   the block's output must be the same JSON values with the same shape (keys,
#                   nesting, array lengths, value types), whatever the values
#   ``` (no name)   an output too; when it shows an HTTP response (curl -i), the status code and
#                   the shape of a JSON body are compared
#   anything else   not run, not compared
# Needs java, curl, grpcurl and jq, and the ports 8080, 8081 and 8082.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jar=$(realpath "${1:-$root/target/vfps.jar}")
readme=$root/README.md
cd "$root"

java=java
if [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
for tool in curl grpcurl jq; do
  command -v "$tool" >/dev/null || { echo "readme-examples: $tool is needed (see README)" >&2; exit 1; }
done
for port in 8080 8081 8082; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "readme-examples: port $port is in use; the examples need 8080, 8081 and 8082" >&2
    exit 1
  fi
done

work=$(mktemp -d /tmp/vfps-readme.XXXXXX)
pid=""
block_line=""
block_output=""
finish() {
  status=$?
  set +e
  if [ "$status" -ne 0 ] && [ -n "$block_line" ]; then
    if [ -n "$block_output" ] && [ -f "$block_output" ]; then cat "$block_output"; echo; fi
    echo "readme-examples: the example at README.md:$block_line failed (exit $status)" >&2
    echo "--- the service's log (last 40 lines)" >&2
    tail -n 40 "$work/vfps.log" >&2
  fi
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT

# the blocks: $work/N holds block N; $work/blocks lists "N|line|name|options|adjacent", where
# adjacent is 1 when only blank lines stand between the previous block and this one
awk -v dir="$work" '
  BEGIN { n = 0; inside = 0; text = 1 }
  /^```/ && !inside {
    n++; inside = 1
    spec = substr($0, 4); name = spec; options = ""
    split(spec, words, " "); name = words[1]; sub("^[^ ]*[ ]*", "", spec); options = spec
    printf "%d|%d|%s|%s|%d\n", n, NR, name, options, (text ? 0 : 1) > (dir "/blocks")
    printf "" > (dir "/" n)
    next
  }
  /^```[ ]*$/ && inside { inside = 0; text = 0; next }
  inside { print > (dir "/" n); next }
  /[^ \t]/ { text = 1 }
' "$readme"

echo "readme-examples: starting $jar on a new embedded database"
Database__Embedded__DataDirectory="$work/postgres" "$java" -jar "$jar" >"$work/vfps.log" 2>&1 &
pid=$!
for _ in $(seq 1 180); do
  if curl -fsS -o /dev/null localhost:8080/readyz 2>/dev/null \
    && grpcurl -plaintext localhost:8081 grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING; then
    break
  fi
  kill -0 "$pid" 2>/dev/null || { cat "$work/vfps.log" >&2; echo "vfps did not start" >&2; exit 1; }
  sleep 1
done
grep -m1 "started in" "$work/vfps.log" || { echo "vfps did not start in time" >&2; exit 1; }

shape() { jq -cS 'walk(if type == "object" or type == "array" then . else type end)'; }

# compares an output block ($1) with what the previous run block printed ($2)
compare() {
  local expected=$1 actual=$2 name=$3
  if [ "$name" = json ]; then
    if ! diff <(shape <"$expected") <(shape <"$actual") >"$work/diff" 2>&1; then
      echo "readme-examples: the output differs in shape from the README's (< README, > now):" >&2
      cat "$work/diff" >&2
      return 1
    fi
    compared=$((compared + 1))
  elif head -n 1 "$expected" | grep -q '^HTTP/'; then
    local want got
    want=$(head -n 1 "$expected" | awk '{print $2}')
    got=$(head -n 1 "$actual" | tr -d '\r' | awk '{print $2}')
    if [ "$want" != "$got" ]; then
      echo "readme-examples: the README shows status $want, the service answered $got" >&2
      return 1
    fi
    # the bodies, after the first blank line, when the README's is JSON
    if sed '1,/^$/d' "$expected" | jq -e . >/dev/null 2>&1; then
      diff <(sed '1,/^$/d' "$expected" | shape) <(tr -d '\r' <"$actual" | sed '1,/^$/d' | shape) \
        >"$work/diff" 2>&1 || { echo "readme-examples: the body differs in shape:" >&2; cat "$work/diff" >&2; return 1; }
    fi
    compared=$((compared + 1))
  fi
}

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
      if [[ " $options " == *" error "* ]]; then
        unset -f curl
      else
        curl() { command curl --fail-with-body "$@"; }
      fi
      echo
      echo "== README.md:$line"
      sed 's/^/$ /' "$work/$n"
      block_line=$line
      block_output=$work/$n.out
      # sourced, not run in a subshell: what a block assigns is there for the next one
      # shellcheck disable=SC1090
      source "$work/$n" >"$block_output" 2>&1
      cat "$block_output"
      # curl prints no newline after a body
      if [ -n "$(tail -c 1 "$block_output")" ]; then echo; fi
      block_output=""
      last_output=$work/$n.out
      ran=$((ran + 1))
      ;;
    *)
      if [ -n "$last_output" ] && [ "$adjacent" = 1 ]; then
        block_line=$line
        compare "$work/$n" "$last_output" "$name"
      fi
      last_output=""
      ;;
  esac
done <"$work/blocks"
block_line=""

echo
echo "readme-examples: $ran blocks run, $compared outputs compared, $skipped blocks not run (no-run)"
echo "readme: $ran passed, 0 failed, $skipped skipped"
