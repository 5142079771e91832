#!/usr/bin/env bash
# The benchmark kit's runner. In one run on one machine it measures
#
#   1. vfps with its caches off under ghz (gRPC Create of new values, then of known values, then
#      Get, the reverse lookup, of their pseudonyms) and, when wrk is installed, under wrk (REST and
#      FHIR);
#   2. vfps with both caches on under ghz (new values; known values, which the pseudonym cache
#      answers without the database; Get of their pseudonyms, with the namespace from its cache);
#   3. the framework's floor: a bare vertx-grpc server answering the same call with a canned reply
#      of the same size (loadtest/FloorServer.java, the same JAVA_OPTS), under the same ghz load;
#   4. PostgreSQL alone running the .NET service's single-row upsert under pgbench at the same
#      concurrency;
#   5. sealed originals (docs/sealed-originals.md): vfps with its caches off and a new key file in
#      Sealing__KeyFile, the same ghz workloads (Create of new values, of known values, Get) in a
#      namespace it creates, which is sealed, and then in the namespace "bench" of step 1, which
#      stays plain: both in one JVM, measured sealed, plain, plain, sealed and pooled by pairs;
#
# and prints requests per second, latency, errors and the ratio to pgbench, and, from /proc
# (loadtest/cpu.py), the CPU per request of the service, of PostgreSQL's backends and of the load
# generator, each against its floor, the service's write system calls per request, and where the
# machine's cores went during each run.
#
#   loadtest/benchmark.sh                # 100,000 requests per workload at concurrency 50
#   REQUESTS=20000 WARMUP=20000 loadtest/benchmark.sh # shorter
#
# Needs: a local PostgreSQL (it creates the database vfps_bench through `runuser -u postgres psql`,
# or set ADMIN_PSQL to another admin psql command, and reads the postmaster's pid from its data
# directory), the jar (./mvnw package), ghz and grpcurl on PATH (go install
# github.com/bojand/ghz/cmd/ghz@latest and github.com/fullstorydev/grpcurl/cmd/grpcurl@latest),
# pgbench, python3, a JDK 21+ for the floor server (run from source); wrk for REST and FHIR.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

REQUESTS=${REQUESTS:-100000}
CONCURRENCY=${CONCURRENCY:-50}
# calls before each measured server's first run, so that the JIT has compiled the path (the floor
# gets as many as the cached service had before its cache hits)
WARMUP=${WARMUP:-60000}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
JAVA_OPTS=${JAVA_OPTS:-}
PGHOST_BENCH=${PGHOST_BENCH:-127.0.0.1}
GRPC_PORT=${GRPC_PORT:-48081}
HTTP_PORT=${HTTP_PORT:-48080}
FLOOR_PORT=${FLOOR_PORT:-48083}
KNOWN=1000
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-bench.XXXXXX)
on_exit 'rm -rf "$work"'
service_pid=""
on_exit 'stop_process "$service_pid"'
trap "exit 143" TERM INT

say "== database vfps_bench (fresh)"
fresh_database vfps_bench
connection=$ConnectionStrings__PostgreSQL
export PGPASSWORD=vfps_bench
bench_psql=(psql -q -h "$PGHOST_BENCH" -U vfps_bench -d vfps_bench -v ON_ERROR_STOP=1)
data_directory=$(pg_data_directory)
postmaster=$(postmaster_pid "$data_directory")
say "   PostgreSQL postmaster $postmaster ($data_directory)"

# measure NAME [--pid PID] -- COMMAND...: runs the load generator, CPU figures in NAME.cpu.json
measure() {
  local name=$1
  shift
  python3 loadtest/cpu.py --out "$work/$name.cpu.json" --postmaster "$postmaster" \
    --database vfps_bench "$@"
}

start_service() { # label, then extra environment (NAME=value ...)
  local label=$1
  shift
  say "== vfps, $label ($JAR $JAVA_OPTS)"
  # shellcheck disable=SC2086
  env "$@" ConnectionStrings__PostgreSQL="$connection" Grpc__Port=$GRPC_PORT Http__Port=$HTTP_PORT \
    MetricsPort=0 "$JAVA" $JAVA_OPTS -jar "$JAR" >"$work/vfps-$label.log" 2>&1 &
  service_pid=$!
  wait_grpc "$GRPC_PORT"
  # gRPC serves before HTTP is up: wait for the start line, so that start-up work is not measured
  wait_for 120 0.5 "" grep -m1 "started in" "$work/vfps-$label.log" >&2 && return
  say "vfps did not finish starting"
  exit 1
}

floor_or_vfps_answers() { # port: vfps's health service, or the floor's Create
  grpc_serving "127.0.0.1:$1" && return
  grpcurl -plaintext -protoset "$work/vfps.protoset" -d '{}' "127.0.0.1:$1" \
    vfps.api.v1.PseudonymService/Create >/dev/null 2>&1
}

wait_grpc() { # port
  wait_for 120 0.5 "" floor_or_vfps_answers "$1" && return
  say "nothing answers on port $1"
  exit 1
}

stop_service() {
  kill "$service_pid"
  wait "$service_pid" 2>/dev/null || true
  service_pid=""
}

# ghz_run NAME PORT ghz-arguments...: unmeasured (warm-up, seeding); CALL names the method (Create)
ghz_run() {
  local name=$1 port=$2
  shift 2
  ghz --insecure --protoset "$work/vfps.protoset" --call "vfps.api.v1.PseudonymService/${CALL:-Create}" \
    -c "$CONCURRENCY" -O json -o "$work/$name.json" "$@" "127.0.0.1:$port"
}

# ghz_measured NAME PORT ghz-arguments...: measured, with the CPU of the server on PORT
ghz_measured() {
  local name=$1 port=$2
  shift 2
  measure "$name" --pid "$service_pid" -- ghz --insecure --protoset "$work/vfps.protoset" \
    --call "vfps.api.v1.PseudonymService/${CALL:-Create}" -c "$CONCURRENCY" -O json \
    -o "$work/$name.json" \
    "$@" "127.0.0.1:$port"
}

# known_values FILE NAMESPACE: the known set ($KNOWN values) as ghz's data for Create
known_values() {
  python3 - "$1" "$KNOWN" "$2" <<'PY'
import json, sys
json.dump([{"namespace": sys.argv[3], "originalValue": f"known-{i:04d}"}
           for i in range(int(sys.argv[2]))], open(sys.argv[1], "w"))
PY
}

# known_pseudonyms KNOWN_FILE OUT_FILE NAMESPACE: the known values' pseudonyms as ghz's data for
# Get, from the REST API's batch create (which returns the stored ones)
known_pseudonyms() {
  python3 - "$1" "$2" "$HTTP_PORT" "$3" <<'PY'
import json, sys, urllib.parse, urllib.request
known = [entry["originalValue"] for entry in json.load(open(sys.argv[1]))]
namespace = sys.argv[4]
pseudonyms = []
for start in range(0, len(known), 500):
    body = json.dumps({"originalValues": known[start:start + 500]}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{sys.argv[3]}/v1/namespaces/{urllib.parse.quote(namespace)}"
        "/pseudonyms:batchCreate", body, {"Content-Type": "application/json"})
    reply = json.load(urllib.request.urlopen(request))
    pseudonyms += [p["pseudonymValue"] for p in reply["pseudonyms"]]
json.dump([{"namespace": namespace, "pseudonymValue": p} for p in pseudonyms],
          open(sys.argv[2], "w"))
PY
}

# create_namespace NAME: the benchmark's namespace settings (random pseudonyms of 32 characters)
create_namespace() {
  grpcurl -plaintext -d "{\"name\": \"$1\", \"pseudonymGenerationMethod\": \"PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED\", \"pseudonymLength\": 32}" \
    "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null
}

new_values='{"namespace": "bench", "originalValue": "{{randomString 32}}"}'
warm_values='{"namespace": "bench", "originalValue": "warm-{{.RequestNumber}}-{{randomString 8}}"}'
sealed_new_values=${new_values/bench/bench-sealed}
sealed_warm_values=${warm_values/bench/bench-sealed}

start_service caches-off
grpcurl -plaintext -protoset-out "$work/vfps.protoset" "127.0.0.1:$GRPC_PORT" \
  describe vfps.api.v1.PseudonymService >/dev/null
create_namespace bench
known_values "$work/known.json" bench

say "== warm-up ($WARMUP creates, not counted) and the known set ($KNOWN values)"
ghz_run warmup "$GRPC_PORT" -n "$WARMUP" -d "$warm_values"
ghz_run seed "$GRPC_PORT" -n "$KNOWN" -D "$work/known.json"
say "== ghz: gRPC Create, new values"
ghz_measured grpc-new "$GRPC_PORT" -n "$REQUESTS" -d "$new_values"
say "== ghz: gRPC Create, known values"
ghz_measured grpc-known "$GRPC_PORT" -n "$REQUESTS" -D "$work/known.json"
known_pseudonyms "$work/known.json" "$work/get.json" bench
say "== ghz: gRPC Get (reverse lookup), the known values' pseudonyms"
CALL=Get ghz_run warmup-get "$GRPC_PORT" -n "$KNOWN" -D "$work/get.json"
CALL=Get ghz_measured grpc-get "$GRPC_PORT" -n "$REQUESTS" -D "$work/get.json"

if command -v wrk >/dev/null && curl -fsS "http://127.0.0.1:$HTTP_PORT/livez" >/dev/null 2>&1; then
  duration=$(python3 -c "print(max(10, $REQUESTS // 5000))")
  for workload in rest-new rest-known fhir-new; do
    say "== wrk: $workload (${duration}s)"
    measure "$workload" --pid "$service_pid" -- wrk -t2 -c"$CONCURRENCY" -d"${duration}s" --latency \
      -s "loadtest/wrk/$workload.lua" "http://127.0.0.1:$HTTP_PORT" >"$work/$workload.wrk" 2>&1
  done
else
  say "== REST and FHIR skipped (wrk missing or no HTTP listener on $HTTP_PORT)"
fi
stop_service

start_service caches-on Pseudonymization__Caching__Namespaces__IsEnabled=true \
  Pseudonymization__Caching__Pseudonyms__IsEnabled=true
say "== warm-up ($WARMUP creates, not counted); the known set read into the cache"
ghz_run warmup-cached "$GRPC_PORT" -n "$WARMUP" -d "$warm_values"
ghz_run seed-cached "$GRPC_PORT" -n "$KNOWN" -D "$work/known.json"
say "== ghz: gRPC Create, new values, caches on"
ghz_measured grpc-new-cached "$GRPC_PORT" -n "$REQUESTS" -d "$new_values"
say "== ghz: gRPC Create, known values from the pseudonym cache"
ghz_measured grpc-known-cached "$GRPC_PORT" -n "$REQUESTS" -D "$work/known.json"
say "== ghz: gRPC Get (reverse lookup), the namespace from its cache"
CALL=Get ghz_run warmup-get-cached "$GRPC_PORT" -n "$KNOWN" -D "$work/get.json"
CALL=Get ghz_measured grpc-get-cached "$GRPC_PORT" -n "$REQUESTS" -D "$work/get.json"
stop_service

# Sealed originals, caches off (the pseudonym cache would answer known values without the
# database, and so without the blind index's lookup): one JVM with a key file serves a sealed
# namespace it creates and the plain namespace "bench" of the first start, whose Creates and Gets
# take the plain path in a replica with keys too. After the caches-on start, since a replica
# without the key file refuses to start once a sealed namespace exists. Each call is measured
# sealed, plain, plain again and sealed again, and the report pools each pair: what the JIT still
# compiles, and any drift of the machine, then falls on both alike.
"$JAVA" -jar "$JAR" sealing new-key --out "$work/sealing-keys.json" >/dev/null
start_service sealed Sealing__KeyFile="$work/sealing-keys.json"
create_namespace bench-sealed
known_values "$work/known-sealed.json" bench-sealed
say "== warm-up ($WARMUP creates in each namespace, not counted); the sealed known set"
ghz_run warmup-sealed "$GRPC_PORT" -n "$WARMUP" -d "$sealed_warm_values"
ghz_run warmup-keyed-plain "$GRPC_PORT" -n "$WARMUP" -d "$warm_values"
ghz_run seed-sealed "$GRPC_PORT" -n "$KNOWN" -D "$work/known-sealed.json"
say "== ghz: gRPC Create, new values, sealed namespace, then plain"
ghz_measured grpc-new-sealed "$GRPC_PORT" -n "$REQUESTS" -d "$sealed_new_values"
ghz_measured grpc-new-keyed-plain "$GRPC_PORT" -n "$REQUESTS" -d "$new_values"
ghz_measured grpc-new-keyed-plain-again "$GRPC_PORT" -n "$REQUESTS" -d "$new_values"
ghz_measured grpc-new-sealed-again "$GRPC_PORT" -n "$REQUESTS" -d "$sealed_new_values"
say "== ghz: gRPC Create, known values, sealed namespace, then plain"
ghz_measured grpc-known-sealed "$GRPC_PORT" -n "$REQUESTS" -D "$work/known-sealed.json"
ghz_measured grpc-known-keyed-plain "$GRPC_PORT" -n "$REQUESTS" -D "$work/known.json"
ghz_measured grpc-known-keyed-plain-again "$GRPC_PORT" -n "$REQUESTS" -D "$work/known.json"
ghz_measured grpc-known-sealed-again "$GRPC_PORT" -n "$REQUESTS" -D "$work/known-sealed.json"
say "== ghz: gRPC Get (reverse lookup), sealed namespace, then plain"
known_pseudonyms "$work/known-sealed.json" "$work/get-sealed.json" bench-sealed
# a quarter of WARMUP in each namespace: with $KNOWN calls, the JIT compiles the Get path while
# the first of the two is measured, which then pays for both
CALL=Get ghz_run warmup-get-sealed "$GRPC_PORT" -n $((WARMUP / 4)) -D "$work/get-sealed.json"
CALL=Get ghz_run warmup-get-keyed-plain "$GRPC_PORT" -n $((WARMUP / 4)) -D "$work/get.json"
CALL=Get ghz_measured grpc-get-sealed "$GRPC_PORT" -n "$REQUESTS" -D "$work/get-sealed.json"
CALL=Get ghz_measured grpc-get-keyed-plain "$GRPC_PORT" -n "$REQUESTS" -D "$work/get.json"
CALL=Get ghz_measured grpc-get-keyed-plain-again "$GRPC_PORT" -n "$REQUESTS" -D "$work/get.json"
CALL=Get ghz_measured grpc-get-sealed-again "$GRPC_PORT" -n "$REQUESTS" -D "$work/get-sealed.json"
stop_service

say "== the floor: a bare vertx-grpc server (loadtest/FloorServer.java, $JAVA_OPTS)"
# shellcheck disable=SC2086
"$JAVA" $JAVA_OPTS -cp "$JAR" loadtest/FloorServer.java "$FLOOR_PORT" >"$work/floor.log" 2>&1 &
service_pid=$!
wait_grpc "$FLOOR_PORT"
# as many calls as the cached service had served before its measured cache hits, so that the
# JIT has had the same chance on both
ghz_run warmup-floor "$FLOOR_PORT" -n $((WARMUP + KNOWN + REQUESTS)) -d "$warm_values"
say "== ghz: the floor"
ghz_measured grpc-floor "$FLOOR_PORT" -n "$REQUESTS" -d "$new_values"
stop_service

say "== pgbench: the .NET single-row upsert alone on the same schema"
"${bench_psql[@]}" <<SQL
INSERT INTO namespaces VALUES ('pgbench', '', 1, 32, '', '', now(), now());
INSERT INTO pseudonyms
  SELECT 'known-' || i, 'pgbench', md5(i::text), now(), now() FROM generate_series(0, $KNOWN - 1) i;
SQL
# a jar from before the 1.22 schema migrated a pseudonyms table without sequence_number: its
# upsert is the .NET 1.10 one, the same statement without that column
sequence_numbers=$("${bench_psql[@]}" -A -t -c "SELECT count(*) FROM information_schema.columns
  WHERE table_name = 'pseudonyms' AND column_name = 'sequence_number'")
per_client=$((REQUESTS / CONCURRENCY))
for workload in new known; do
  mkdir -p "$work/pgbench-$workload"
  script=$PWD/loadtest/pgbench-$workload.sql
  if [ "$sequence_numbers" = 0 ]; then
    sed -e 's/, sequence_number//g' -e 's/, 0, now(), now())/, now(), now())/' "$script" \
      >"$work/pgbench-$workload.sql"
    script=$work/pgbench-$workload.sql
  fi
  (cd "$work/pgbench-$workload" && python3 "$OLDPWD/loadtest/cpu.py" --out ../pgbench-$workload.cpu.json \
    --postmaster "$postmaster" --database vfps_bench -- pgbench -n -M prepared -h "$PGHOST_BENCH" \
    -U vfps_bench -c "$CONCURRENCY" -j 2 -t "$per_client" -l -f "$script" \
    vfps_bench >summary.txt 2>&1)
done

python3 loadtest/report.py "$work" "$REQUESTS" "$CONCURRENCY"
