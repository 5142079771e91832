#!/usr/bin/env bash
# Runs the examples of the README and of every page of the documentation site, as a reader would:
# each file top to bottom, in one shell, against the jar freshly started on a new embedded database
# (the README's first run), and checks that each output the page shows is what the command printed.
#
#   .ci/doc-examples.sh [target/vfps.jar] [file.md ...]
#   .ci/doc-examples.sh --self-test        only the runner's own check (no jar needed)
#   .ci/doc-examples.sh --running file.md  the files against the service already listening on
#                                          8080 and 8081 (compose, say), not started or stopped
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
#   ```json, ```text or ``` (no name), directly after a run block (blank lines only between):
#                   what the block printed (stdout and stderr), compared exactly by
#                   .ci/doc-compare.py: every character, except what the page marks as random:
#                     <timestamp>  <uuid> <uuid4> <uuid7>          a whole value of that form
#                     <base64url:N> <base62:N> <base32:N> <hex:N> <HEX:N> <base64:N> <digits:N>
#                                  N characters of that alphabet (without :N, one or more)
#                     <any>        one or more characters of a line
#                   so a pseudonym of a namespace of length 32 is "stud-<base64url:54>" (what the
#                   method makes of that length), not any string. json: the same JSON values,
#                   keys in the same order, spaces between tokens aside. An HTTP response
#                   (curl -i): the status line, each header shown, the body. Option shape
#                   (```json shape, ``` { .json .shape }): keys, nesting, array lengths and types
#                   only, for what placeholders cannot say.
#   anything else   not run, not compared
# Only fences at the start of a line count. Each compared block prints how it was compared
# ("exact", "exact, N random placeholders", "shape"); a mismatch prints the page's lines against
# the service's and the runner goes on; a run block that fails ends its file. At the end, every
# failure is listed with its file and line, and the exit status is 1 if there was any. The
# runner's own variables start with doc_ (and pid, jar, java), so that a page's do not clobber them.
# Before the pages, the runner checks itself (.ci/doc-compare.py --self-test, then
# .ci/doc-examples-fixture.md without a service, where exactly the blocks whose fence says
# must-fail have to fail), so that it cannot pass everything unseen.
# Needs java, curl, grpcurl, jq and python3, and the ports 8080, 8081, 8082 and 8083 (the embedded
# S3 store of CSV jobs).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/lib.sh
self_test_only=false
running=false
if [ "${1:-}" = --self-test ]; then
  self_test_only=true
  jar=""
elif [ "${1:-}" = --running ]; then
  running=true
  jar=""
  shift
else
  jar=$(realpath "${1:-$root/target/vfps.jar}")
  shift || true
fi
if [ $# -gt 0 ]; then
  files=("$@")
else
  # the nav's pages: lines such as "      - gRPC: api/grpc.md"
  mapfile -t pages < <(sed -n 's/^ *- [^:]*: *\([^ ]*\.md\) *$/docs\/\1/p' mkdocs.yml)
  files=(README.md "${pages[@]}")
fi

java=java
if [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
for tool in curl grpcurl jq python3; do
  command -v "$tool" >/dev/null || { echo "doc-examples: $tool is needed (see README)" >&2; exit 1; }
done
ports_free() {
  for port in 8080 8081 8082 8083; do
    if port_open 127.0.0.1 "$port"; then
      echo "doc-examples: port $port is in use; the examples need 8080, 8081, 8082 and 8083" >&2
      exit 1
    fi
  done
}

doc_work=$(mktemp -d /tmp/vfps-docs.XXXXXX)
on_exit 'rm -rf "$doc_work"'
doc_failures=$doc_work/failures
touch "$doc_failures"
pid=""
stop_service() {
  # the service exits 143 on SIGTERM, which is no failure here
  stop_process "$pid"
  pid=""
}
on_exit stop_service

start_service() {
  ports_free
  rm -rf "$doc_work/postgres" "$doc_work/s3"
  Database__Embedded__DataDirectory="$doc_work/postgres" S3__Embedded__DataDirectory="$doc_work/s3" \
    "$java" -jar "$jar" >"$doc_work/vfps.log" 2>&1 &
  pid=$!
  local started=0
  wait_for 180 1 "$pid" vfps_serving localhost:8080 localhost:8081 || started=$?
  case $started in
    0) return 0 ;;
    2) cat "$doc_work/vfps.log" >&2 && echo "vfps did not start" >&2 ;;
    *) echo "vfps did not start in time" >&2 ;;
  esac
  exit 1
}

# the blocks of $1: $doc_work/blocks/N holds block N; $doc_work/blocks/list lists
# "N|line|name|options|adjacent", where adjacent is 1 when only blank lines stand between the
# previous block and this one; a fence "{ .sh .no-run }" reads as "sh no-run"
split_blocks() {
  rm -rf "$doc_work/blocks"
  mkdir "$doc_work/blocks"
  awk -v dir="$doc_work/blocks" '
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
  touch "$doc_work/blocks/list"
}

# runs the blocks of $doc_file (split_blocks) in this shell, which is a subshell of the runner's: a
# block that fails under set -e ends it, and the runner goes on with the next file
run_file() {
  local doc_n doc_line doc_name doc_options doc_adjacent doc_last_output=""
  doc_ran=0 doc_skipped=0 doc_compared=0 doc_differ=0 doc_block_line="" doc_block_output=""
  block_failed() {
    local status=$?
    set +e
    exec 1>&3 2>&4
    if [ "$status" -ne 0 ] && [ -n "$doc_block_line" ]; then
      if [ -n "$doc_block_output" ] && [ -f "$doc_block_output" ]; then cat "$doc_block_output"; echo; fi
      echo "doc-examples: FAILED $doc_file:$doc_block_line: the example failed (exit $status)"
      echo "--- the service's log (last 40 lines)"
      if [ -f "$doc_work/vfps.log" ]; then tail -n 40 "$doc_work/vfps.log"; fi
      echo "$doc_file:$doc_block_line  the example failed (exit $status)" >>"$doc_failures"
    fi
    echo "$doc_ran $doc_skipped $doc_compared $doc_differ" >"$doc_work/counts"
  }
  exec 3>&1 4>&2
  trap block_failed EXIT
  while IFS='|' read -r doc_n doc_line doc_name doc_options doc_adjacent <&5; do
    case "$doc_name" in
      sh | bash | shell)
        doc_last_output=""
        if [[ " $doc_options " == *" no-run "* ]]; then
          doc_skipped=$((doc_skipped + 1))
          continue
        fi
        doc_expect_error=false
        if [[ " $doc_options " == *" error "* ]]; then
          doc_expect_error=true
          unset -f curl
        else
          curl() { command curl --fail-with-body "$@"; }
        fi
        echo
        echo "== $doc_file:$doc_line"
        sed 's/^/$ /' "$doc_work/blocks/$doc_n"
        doc_block_line=$doc_line
        doc_block_output=$doc_work/blocks/$doc_n.out
        doc_ran=$((doc_ran + 1))
        # sourced, not run in a subshell: what a block assigns is there for the next one; stdin
        # is not the list of blocks
        # shellcheck disable=SC1090
        if $doc_expect_error; then
          source "$doc_work/blocks/$doc_n" >"$doc_block_output" 2>&1 </dev/null || true
        else
          source "$doc_work/blocks/$doc_n" >"$doc_block_output" 2>&1 </dev/null
        fi
        cat "$doc_block_output"
        # curl prints no newline after a body
        if [ -n "$(tail -c 1 "$doc_block_output")" ]; then echo; fi
        doc_block_line="" doc_block_output=""
        doc_last_output=$doc_work/blocks/$doc_n.out
        ;;
      json | text | "")
        if [ -n "$doc_last_output" ] && [ "$doc_adjacent" = 1 ]; then
          doc_compared=$((doc_compared + 1))
          if ! python3 .ci/doc-compare.py "$doc_name" "$doc_options" "$doc_work/blocks/$doc_n" "$doc_last_output" \
            "$doc_file" "$doc_line" >"$doc_work/compare" 2>&1; then
            doc_differ=$((doc_differ + 1))
            # the summary line: the first difference, or why the page's block is malformed
            echo "$doc_file:$doc_line  $(sed -n '2s/^ *//p' "$doc_work/compare")$(sed -n '1s/.*: the page.s output block is malformed: /malformed block: /p' "$doc_work/compare")" \
              >>"$doc_failures"
          fi
          cat "$doc_work/compare"
        fi
        doc_last_output=""
        ;;
      *) doc_last_output="" ;;
    esac
  done 5<"$doc_work/blocks/list"
}

# checks each file of "$@": with a service of its own unless $service is no; the counts add up
# in total_*
check_files() {
  local doc_file
  for doc_file in "$@"; do
    split_blocks "$doc_file"
    if ! awk -F'|' '$3 ~ /^(sh|bash|shell)$/ && (" " $4 " ") !~ / no-run / { found = 1 }
        END { exit !found }' "$doc_work/blocks/list"; then
      echo "== $doc_file: nothing to run"
      continue
    fi
    if [ "$service" = yes ]; then
      echo "== $doc_file: starting $jar on a new embedded database"
      start_service
    fi
    echo "0 0 0 0" >"$doc_work/counts"
    # not "|| true": set -e would not hold inside
    set +e
    (
      set -e
      run_file
    )
    set -e
    stop_service
    read -r doc_ran doc_skipped doc_compared doc_differ <"$doc_work/counts"
    echo "== $doc_file: $doc_ran blocks run, $doc_compared outputs compared ($doc_differ differ), $doc_skipped not run (no-run)"
    total_ran=$((total_ran + doc_ran)) total_skipped=$((total_skipped + doc_skipped))
    total_compared=$((total_compared + doc_compared)) total_differ=$((total_differ + doc_differ))
  done
}

# the runner's own check: in the fixture, the blocks that fail are exactly those marked must-fail
self_test() {
  local fixture=.ci/doc-examples-fixture.md failed marked
  if ! python3 .ci/doc-compare.py --self-test >"$doc_work/self-test.log" 2>&1; then
    cat "$doc_work/self-test.log"
    return 1
  fi
  service=no total_ran=0 total_skipped=0 total_compared=0 total_differ=0
  check_files "$fixture" >"$doc_work/self-test.log" 2>&1
  failed=$(sed 's/^[^:]*:\([0-9]*\) .*/\1/' "$doc_failures" | sort -n | tr '\n' ' ')
  marked=$(grep -n '^```.*must-fail' "$fixture" | cut -d: -f1 | sort -n | tr '\n' ' ')
  : >"$doc_failures"
  if [ "$failed" != "$marked" ] || [ "$total_compared" -lt 8 ]; then
    cat "$doc_work/self-test.log"
    echo "doc-examples: the runner's self-test failed: lines ${marked}of $fixture must fail," \
      "lines ${failed:-none }failed ($total_compared outputs compared)"
    return 1
  fi
  echo "doc-examples: self-test passed ($total_compared outputs of $fixture compared, lines ${marked}failed as marked)"
}

self_test
if $self_test_only; then exit 0; fi

service=yes total_ran=0 total_skipped=0 total_compared=0 total_differ=0
if $running; then service=no; fi
check_files "${files[@]}"

echo
echo "doc-examples: ${#files[@]} files, $total_ran blocks run, $total_compared outputs compared" \
  "($total_differ differ), $total_skipped blocks not run (no-run)"
if [ -s "$doc_failures" ]; then
  echo "doc-examples: $(wc -l <"$doc_failures") failures (file:line of the page's block, first difference):"
  sed 's/^/  /' "$doc_failures"
  exit 1
fi
