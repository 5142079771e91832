#!/usr/bin/env bash
# Chaos: pseudonym Creates under steady load while the database and the service fail, then a check
# that nothing acknowledged was lost.
#
#   loadtest/chaos.sh                 # 8 clients, 20 s of quiet between the faults
#   CLIENTS=4 QUIET=10 loadtest/chaos.sh
#
# It makes its own throwaway PostgreSQL 15 cluster (initdb, as the user postgres, on PG_PORT,
# default 55432, under /tmp), so the machine's cluster on 5432 is never touched, and starts the jar
# against it on shifted ports (gRPC 48081, HTTP 48080, metrics off). CLIENTS loops of grpcurl send
# Creates of fresh original values without pause, each call with a 5 s deadline, and record when
# each ended, its status and, when acknowledged, its pseudonym. The faults, one after another with
# QUIET seconds between them:
#   1. PostgreSQL restarted (pg_ctl restart, fast shutdown);
#   2. PostgreSQL stopped for 15 s, then started;
#   3. the service killed with kill -9 and started again at once.
# Afterwards every acknowledged (original, pseudonym) pair must be in the table, and no pseudonym
# may belong to two originals. It prints a table: calls and status codes per phase, and for each
# fault the recovery time (from the end of the fault to the first acknowledged Create after it).
# Exits 1 when a pair is lost or a pseudonym is shared.
#
# Needs: PostgreSQL 15 binaries (/usr/lib/postgresql/15/bin), the jar (./mvnw package), the protos
# unpacked by the build (target/proto), a JDK 21+ (JAVA_HOME), grpcurl on PATH or in ~/go/bin,
# root (to run initdb as postgres). Stops everything it started and removes the cluster.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
SAY_STYLE=section

CLIENTS=${CLIENTS:-8}
QUIET=${QUIET:-20}
PG_PORT=${PG_PORT:-55432}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
GRPC_PORT=48081
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"

for tool in grpcurl "$PG_BIN/initdb" "$JAVA_HOME/bin/java"; do
  command -v "$tool" >/dev/null || { echo "chaos: $tool is needed" >&2; exit 1; }
done
[ -f target/vfps.jar ] && [ -d target/proto ] || { echo "chaos: build first (./mvnw package)" >&2; exit 1; }

work=$(mktemp -d /tmp/vfps-chaos.XXXXXX)
chmod 755 "$work"
on_exit 'echo "logs: $work" >&2'
# PostgreSQL runs as postgres, which may not write to $work: its data and log live in a directory
# of its own
install -d -o postgres "$work/pg"
data=$work/pg/data
pglog=$work/pg/postgres.log
service_pid=""
client_pids=()
pg() { "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$data" -w -t 60 "$@" >>"$work/pg_ctl.log" 2>&1; }
on_exit 'rm -rf "$data"'
on_exit 'pg stop -m immediate 2>/dev/null'
on_exit 'stop_process "$service_pid"'
on_exit 'for p in "${client_pids[@]}"; do kill "$p" 2>/dev/null; done'
mark() { echo "$(now_ms) $1" >>"$work/events"; } # a phase boundary or a fault's end

say "a throwaway PostgreSQL cluster on port $PG_PORT"
pg_throwaway_cluster "$data" "$PG_PORT" "$work/initdb.log"
pg -l "$pglog" start
"${AS_POSTGRES[@]}" "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -q -c 'CREATE DATABASE vfps_chaos'
psql_chaos() { "${AS_POSTGRES[@]}" "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d vfps_chaos -q -t -A -v ON_ERROR_STOP=1 "$@"; }

export ConnectionStrings__PostgreSQL="Host=127.0.0.1;Port=$PG_PORT;Database=vfps_chaos;Username=postgres;Password=unused;Timeout=5"
export Grpc__Port=$GRPC_PORT Http__Port=48080 MetricsPort=0 ForceRunDatabaseMigrations=true
start_service() {
  "$JAVA_HOME/bin/java" -jar target/vfps.jar >>"$work/service.log" 2>&1 &
  service_pid=$!
  wait_for 60 0.2 "$service_pid" grpc_serving "127.0.0.1:$GRPC_PORT" -max-time 2 && return 0
  tail -20 "$work/service.log" >&2
  say "the service did not come up"
  exit 1
}
say "the service"
start_service
protos=(-import-path src/main/proto -import-path target/proto -proto vfps/api/v1/namespaces.proto -proto vfps/api/v1/pseudonyms.proto)
grpcurl -plaintext "${protos[@]}" -d '{"name": "chaos", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED", "pseudonymLength": 16}' \
  "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null

# one client: Creates without pause; a line per call: end (ms), status, original, pseudonym
client() {
  local c=$1 i=0 out status value
  while :; do
    i=$((i + 1))
    out=$(grpcurl -plaintext -max-time 5 "${protos[@]}" -d "{\"namespace\": \"chaos\", \"originalValue\": \"chaos-$c-$i\"}" \
      "127.0.0.1:$GRPC_PORT" vfps.api.v1.PseudonymService/Create 2>&1) && status=OK || status=""
    value=""
    if [ "$status" = OK ]; then
      value=$(echo "$out" | sed -n 's/.*"pseudonymValue": "\([^"]*\)".*/\1/p')
    elif [[ $out =~ Code:\ ([A-Za-z]+) ]]; then
      status=${BASH_REMATCH[1]}
    elif [[ $out == *"Failed to dial"* || $out == *"connection refused"* ]]; then
      status=NO_CONNECTION
    elif [[ $out == *"deadline"* || $out == *"timed out"* ]]; then
      status=CLIENT_TIMEOUT
    else
      status=OTHER
    fi
    echo "$(now_ms) $status chaos-$c-$i $value"
  done >"$work/calls.$c"
}

say "load: $CLIENTS clients"
mark "start"
for c in $(seq 1 "$CLIENTS"); do
  client "$c" &
  client_pids+=($!)
done

sleep "$QUIET"
say "fault 1: PostgreSQL restarted"
mark "pg-restart"
pg restart -m fast
mark "pg-restart:end"

sleep "$QUIET"
say "fault 2: PostgreSQL stopped for 15 s"
mark "pg-stop"
pg stop -m fast
sleep 15
pg start -l "$pglog" -o "-p $PG_PORT -k $data -c listen_addresses=127.0.0.1"
mark "pg-stop:end"

sleep "$QUIET"
say "fault 3: kill -9 of the service, started again at once"
mark "kill-9"
kill -9 "$service_pid"
wait "$service_pid" 2>/dev/null || true
echo "--- killed" >>"$work/service.log"
mark "kill-9:end"
start_service

sleep "$QUIET"
mark "end"
for p in "${client_pids[@]}"; do kill "$p" 2>/dev/null || true; done
for p in "${client_pids[@]}"; do wait "$p" 2>/dev/null || true; done
client_pids=()
cat "$work"/calls.* | sort -n >"$work/calls"

say "verification in SQL"
awk '$2 == "OK" {print $3 "\t" $4}' "$work/calls" >"$work/acks.tsv"
read -r acked missing shared rows < <(psql_chaos <<SQL | tr '|' ' '
CREATE TEMP TABLE acks (original_value text, pseudonym_value text);
\copy acks FROM '$work/acks.tsv'
SELECT
  (SELECT count(*) FROM acks),
  (SELECT count(*) FROM acks a LEFT JOIN pseudonyms p
     ON p.namespace_name = 'chaos' AND p.original_value = a.original_value
   WHERE p.pseudonym_value IS DISTINCT FROM a.pseudonym_value),
  (SELECT count(*) FROM (SELECT pseudonym_value FROM pseudonyms WHERE namespace_name = 'chaos'
     GROUP BY pseudonym_value HAVING count(*) > 1) d)
  + (SELECT count(*) FROM (SELECT pseudonym_value FROM acks
     GROUP BY pseudonym_value HAVING count(DISTINCT original_value) > 1) d),
  (SELECT count(*) FROM pseudonyms WHERE namespace_name = 'chaos');
SQL
)
errors_in_log=$(grep -c ' ERROR ' "$work/service.log" || true)

# the table: one row per stretch between two marks, the calls that ended in it by status, and
# after a fault the time from its end to the first acknowledged Create
awk '
  FILENAME ~ /events$/ { at[++n] = $1; name[n] = $2; next }
  {
    p = 0
    for (k = 1; k < n; k++) if ($1 >= at[k]) p = k
    if (p == 0) next
    calls[p]++; codes[p, $2]++; seen[$2] = 1
    if ($2 == "OK" && name[p] ~ /:end$/ && !(p in recovered)) recovered[p] = $1 - at[p]
  }
  END {
    label["start"] = "steady load"
    label["pg-restart"] = "PostgreSQL restarting"
    label["pg-restart:end"] = "after the restart"
    label["pg-stop"] = "PostgreSQL stopped (15 s)"
    label["pg-stop:end"] = "after PostgreSQL is back"
    label["kill-9"] = "kill -9 of the service"
    label["kill-9:end"] = "after the kill, service restarted"
    printf "| stretch | seconds | calls | status codes | first acknowledgement after the fault |\n"
    printf "|---|---|---|---|---|\n"
    for (k = 1; k < n; k++) {
      list = ""
      for (s in seen) if ((k, s) in codes) list = list (list == "" ? "" : ", ") s " " codes[k, s]
      rec = name[k] !~ /:end$/ ? "" : (k in recovered) ? recovered[k] " ms" : "none"
      printf "| %s | %.1f | %d | %s | %s |\n", label[name[k]], (at[k + 1] - at[k]) / 1000, \
        calls[k], list, rec
    }
  }' "$work/events" "$work/calls"

cat <<EOF

| check | value |
|---|---|
| Creates acknowledged | $acked |
| acknowledged pairs missing or different in the table | $missing |
| pseudonyms shared by two originals | $shared |
| rows in the namespace | $rows |
| ERROR lines in the service log | $errors_in_log |
EOF

if [ "$missing" -ne 0 ] || [ "$shared" -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "passed: every acknowledged pseudonym is stored, none is shared"
