#!/usr/bin/env bash
# The benchmark kit's runner: in one run on one machine it measures vfps under ghz (gRPC) and, when
# wrk is installed and the service has its HTTP port, under wrk (REST and FHIR), then PostgreSQL
# alone running the .NET service's single-row upsert under pgbench at the same concurrency, and
# prints one table with the ratio of each workload to pgbench.
#
#   loadtest/benchmark.sh                # 100,000 requests per workload at concurrency 50
#   REQUESTS=20000 loadtest/benchmark.sh # shorter
#
# Needs: a local PostgreSQL (it creates the database vfps_bench through `runuser -u postgres psql`,
# or set ADMIN_PSQL to another admin psql command), the jar (./mvnw package), ghz and grpcurl on
# PATH (go install github.com/bojand/ghz/cmd/ghz@latest and
# github.com/fullstorydev/grpcurl/cmd/grpcurl@latest), pgbench, python3; wrk for REST and FHIR.
set -euo pipefail
cd "$(dirname "$0")/.."
. loadtest/lib.sh

REQUESTS=${REQUESTS:-100000}
CONCURRENCY=${CONCURRENCY:-50}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
JAVA_OPTS=${JAVA_OPTS:-}
PGHOST_BENCH=${PGHOST_BENCH:-127.0.0.1}
GRPC_PORT=${GRPC_PORT:-48081}
HTTP_PORT=${HTTP_PORT:-48080}
KNOWN=1000
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-bench.XXXXXX)
service_pid=""
cleanup() {
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf '%s\n' "$*" >&2; }

say "== database vfps_bench (fresh)"
fresh_database vfps_bench
connection=$ConnectionStrings__PostgreSQL
export PGPASSWORD=vfps_bench
bench_psql=(psql -q -h "$PGHOST_BENCH" -U vfps_bench -d vfps_bench -v ON_ERROR_STOP=1)

say "== vfps ($JAR $JAVA_OPTS)"
# shellcheck disable=SC2086
ConnectionStrings__PostgreSQL="$connection" Grpc__Port=$GRPC_PORT Http__Port=$HTTP_PORT MetricsPort=0 \
  "$JAVA" $JAVA_OPTS -jar "$JAR" >"$work/vfps.log" 2>&1 &
service_pid=$!
for _ in $(seq 1 120); do
  grpcurl -plaintext "127.0.0.1:$GRPC_PORT" grpc.health.v1.Health/Check >/dev/null 2>&1 && break
  sleep 0.5
done
grep -m1 "started in" "$work/vfps.log" >&2

protos=(-import-path src/main/proto -import-path target/proto -proto vfps/api/v1/namespaces.proto -proto vfps/api/v1/pseudonyms.proto)
grpcurl -plaintext "${protos[@]}" -d '{"name": "bench", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED", "pseudonymLength": 32}' \
  "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null
python3 - "$work/known.json" "$KNOWN" <<'PY'
import json, sys
json.dump([{"namespace": "bench", "originalValue": f"known-{i:04d}"} for i in range(int(sys.argv[2]))],
          open(sys.argv[1], "w"))
PY

ghz_run() { # name, extra ghz arguments...
  local name=$1; shift
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" \
    -O json -o "$work/$name.json" "$@" "127.0.0.1:$GRPC_PORT"
}

say "== warm-up (10,000 creates, not counted) and the known set ($KNOWN values)"
ghz_run warmup -n 10000 -d '{"namespace": "bench", "originalValue": "warm-{{.RequestNumber}}-{{randomString 8}}"}'
ghz_run seed -n "$KNOWN" -D "$work/known.json"

say "== ghz: gRPC Create, new values"
ghz_run grpc-new -n "$REQUESTS" -d '{"namespace": "bench", "originalValue": "{{randomString 32}}"}'
say "== ghz: gRPC Create, known values"
ghz_run grpc-known -n "$REQUESTS" -D "$work/known.json"

if command -v wrk >/dev/null && curl -fsS "http://127.0.0.1:$HTTP_PORT/livez" >/dev/null 2>&1; then
  duration=$(python3 -c "print(max(10, $REQUESTS // 5000))")
  for workload in rest-new rest-known fhir-new; do
    say "== wrk: $workload (${duration}s)"
    wrk -t2 -c"$CONCURRENCY" -d"${duration}s" --latency -s "loadtest/wrk/$workload.lua" \
      "http://127.0.0.1:$HTTP_PORT" >"$work/$workload.wrk" 2>&1
  done
else
  say "== REST and FHIR skipped (wrk missing or no HTTP listener on $HTTP_PORT)"
fi

kill "$service_pid"; wait "$service_pid" 2>/dev/null || true; service_pid=""

say "== pgbench: the .NET single-row upsert alone on the same schema"
"${bench_psql[@]}" <<SQL
INSERT INTO namespaces VALUES ('pgbench', '', 1, 32, '', '', now(), now());
INSERT INTO pseudonyms
  SELECT 'known-' || i, 'pgbench', md5(i::text), now(), now() FROM generate_series(0, $KNOWN - 1) i;
SQL
per_client=$((REQUESTS / CONCURRENCY))
for workload in new known; do
  mkdir -p "$work/pgbench-$workload"
  (cd "$work/pgbench-$workload" && pgbench -n -M prepared -h "$PGHOST_BENCH" -U vfps_bench \
    -c "$CONCURRENCY" -j 2 -t "$per_client" -l -f "$OLDPWD/loadtest/pgbench-$workload.sql" vfps_bench \
    >summary.txt 2>&1)
done

python3 loadtest/report.py "$work" "$REQUESTS" "$CONCURRENCY"
