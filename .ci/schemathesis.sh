#!/usr/bin/env bash
# Fuzzes the REST and FHIR API against its own OpenAPI contract: schemathesis (every check, and
# what schemathesis.toml tells it) runs against the jar started on free ports and a new, migrated
# database, for a bounded time and with a fixed seed. Fails on any schemathesis failure or error,
# and on any ERROR line or stack trace in the service's log (a client's mistake is never an error
# of the service).
#
#   .ci/schemathesis.sh [target/vfps.jar]
#
# VFPS_TEST_DATABASE_URL   postgresql://user:password@host:port/database on the server to create
#                          the run's database on (the role needs CREATEDB); the database is
#                          dropped at the end
# SCHEMATHESIS_SEED        the seed (default 1)
# SCHEMATHESIS_MAX_TIME    seconds schemathesis may take (default 120)
# SCHEMATHESIS_VENV        where schemathesis is installed (default ~/.cache/vfps/schemathesis-VERSION)
#
# Needs psql, curl and python3 with venv (installed with apt-get when missing, as root).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/lib.sh"
jar=$(realpath "${1:-$root/target/vfps.jar}")
version=4.32.5
seed=${SCHEMATHESIS_SEED:-1}
max_time=${SCHEMATHESIS_MAX_TIME:-120}
venv=${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/vfps/schemathesis-$version}
: "${VFPS_TEST_DATABASE_URL:?VFPS_TEST_DATABASE_URL must name the PostgreSQL server to test on}"

java=java
if [ -n "${JAVA_HOME:-}" ]; then java=$JAVA_HOME/bin/java; fi
for tool in psql curl; do
  command -v "$tool" >/dev/null || { echo "schemathesis: $tool is needed" >&2; exit 1; }
done

if [ ! -x "$venv/bin/schemathesis" ] || ! "$venv/bin/schemathesis" --version | grep -qF "$version"; then
  python_venv "$venv" "schemathesis==$version"
fi
"$venv/bin/schemathesis" --version

work=$(mktemp -d /tmp/vfps-schemathesis.XXXXXX)
on_exit 'rm -rf "$work"'
out=$root/target/schemathesis
mkdir -p "$out"
log=$out/vfps.log
on_exit 'show_log_on_failure'
show_log_on_failure() {
  if [ "$CLEANUP_STATUS" -ne 0 ] && [ -f "$log" ]; then
    echo "--- the service's log, $log (last 20 lines)" >&2
    tail -n 20 "$log" >&2
  fi
}
database=vfps_schemathesis_$(echo "${work##*.}" | tr -cd 'a-zA-Z0-9' | tr 'A-Z' 'a-z')
server_url=${VFPS_TEST_DATABASE_URL%/*}

psql -q -v ON_ERROR_STOP=1 "$VFPS_TEST_DATABASE_URL" -c "CREATE DATABASE $database" >/dev/null
on_exit 'psql -q "$VFPS_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null'

# two ports nothing listens on (the kernel's choice, released just before the jar binds them)
read -r http_port grpc_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

echo "schemathesis: starting $jar (HTTP $http_port, gRPC $grpc_port) on the new database $database"
ConnectionStrings__PostgreSQL="$server_url/$database" ForceRunDatabaseMigrations=true \
  Http__Port=$http_port Grpc__Port=$grpc_port MetricsPort=0 \
  "$java" -jar "$jar" >"$log" 2>&1 &
pid=$!
on_exit 'stop_process "$pid"'
started=0
wait_for 120 1 "$pid" url_answers "127.0.0.1:$http_port/readyz" || started=$?
[ "$started" -ne 2 ] || { echo "schemathesis: vfps did not start" >&2; exit 1; }
curl -fsS -o /dev/null "127.0.0.1:$http_port/readyz" || { echo "schemathesis: vfps is not ready" >&2; exit 1; }

# one worker: with two, Python's ast module, which Hypothesis calls while it generates, failed a run
# now and then ("SystemError: AST constructor recursion depth mismatch", Python 3.11)
set +e
(cd "$work" && "$venv/bin/schemathesis" --config-file "$root/schemathesis.toml" \
  run "http://127.0.0.1:$http_port/openapi.json" \
  --checks all --seed "$seed" --max-time "$max_time" --workers 1 \
  --report junit --report-junit-path "$out/junit.xml")
result=$?
set -e

# a stack trace in the log is a bug of the service, whatever schemathesis saw
if grep -nE '^[^ ]+ ERROR |^[[:space:]]+at [[:alnum:]_$.]+\(|^Caused by: ' "$log" >"$work/problems"; then
  echo "schemathesis: the service logged errors or stack traces:" >&2
  head -n 40 "$work/problems" >&2
  [ "$result" -ne 0 ] || result=1
fi
if [ "$result" -ne 0 ]; then
  echo "schemathesis: failed (seed $seed)" >&2
  exit "$result"
fi
echo "schemathesis: no failures (seed $seed, at most $max_time s)"
