#!/usr/bin/env bash
# VOPRF pseudonyms against random ones, in one run on one machine: ghz measures gRPC Creates per
# second of new values in a VOPRF namespace and in a random (base64url) one, one call at a time and
# CONCURRENCY at a time; the same concurrent load against a second vfps that sends each value in a
# call of its own (Voprf__MaxBatchSize=1, upstream's one round trip per Create) shows what sharing
# the server's calls gives; Creates of values already stored show that the server is not asked for
# them; BatchCreate shows the chunks. For each run it prints Creates per second, the ratio to the
# random method's of the same concurrency, and the CPU per Create of vfps, of the VOPRF server and
# of PostgreSQL's backends (from /proc, loadtest/cpu.py), and how many values the server evaluated
# per call.
#
#   loadtest/voprf-benchmark.sh                 # 2,000 calls per run
#   SCALE=5 loadtest/voprf-benchmark.sh         # five times as many
#
# Needs: a local PostgreSQL (it creates the database vfps_bench_voprf through
# `runuser -u postgres psql`, or set ADMIN_PSQL), the jar (./mvnw package), ghz and grpcurl on PATH
# (go install github.com/bojand/ghz/cmd/ghz@latest), python3.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

SCALE=${SCALE:-1}
CALLS=$((2000 * SCALE))
CONCURRENCY=${CONCURRENCY:-32}
BATCH=${BATCH:-1000}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA_OPTS=${JAVA_OPTS:-}
VOPRF_PORT=${VOPRF_PORT:-48191}
GRPC_PORT=${GRPC_PORT:-48192}
UNBATCHED_PORT=${UNBATCHED_PORT:-48193}
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-voprf-bench.XXXXXX)
on_exit 'rm -rf "$work"'
pids=()
on_exit 'stop_process "${pids[@]}"'

say "== database vfps_bench_voprf (fresh)"
fresh_database vfps_bench_voprf
postmaster=$(postmaster_pid "$(pg_data_directory)")

say "== VOPRF server (development mode: clear text, no rate limit)"
# a seed for this benchmark only; a real one comes from a Secret
# shellcheck disable=SC2086
ASPNETCORE_ENVIRONMENT=Development VoprfServer__Hardening__IsEnabled=false \
  VoprfServer__Key__Seed=$(head -c 32 /dev/urandom | base64) VoprfServer__Key__KeyId=bench \
  Grpc__Port=$VOPRF_PORT start_java "$work/voprf.log" "VOPRF server" $JAVA_OPTS -jar "$JAR" voprf-server
voprf_pid=$STARTED_PID
pids+=("$voprf_pid")
public_key=$(grpcurl -plaintext -import-path src/main/proto -proto vfps/voprf/v1/voprf.proto \
  "127.0.0.1:$VOPRF_PORT" vfps.voprf.v1.VoprfService/GetPublicKey |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["publicKey"])')

start_vfps() { # port, max batch size
  # shellcheck disable=SC2086
  Grpc__Port=$1 Http__Port=0 MetricsPort=0 Voprf__Address=http://127.0.0.1:$VOPRF_PORT \
    Voprf__PublicKey=$public_key Voprf__MaxBatchSize=$2 \
    start_java "$work/vfps-$1.log" "started in" $JAVA_OPTS -jar "$JAR"
  pids+=("$STARTED_PID")
}
say "== vfps ($JAR $JAVA_OPTS), and a second one that sends one value per server call"
start_vfps "$GRPC_PORT" 128
vfps_pid=$STARTED_PID
start_vfps "$UNBATCHED_PORT" 1
unbatched_pid=$STARTED_PID

for namespace in random:PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED:32 \
  voprf:PSEUDONYM_GENERATION_METHOD_VOPRF:86; do
  IFS=: read -r name method length <<<"$namespace"
  grpcurl -plaintext -d "{\"name\": \"$name\", \"pseudonymGenerationMethod\": \"$method\", \"pseudonymLength\": $length}" \
    "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null
done
python3 - "$work" "$BATCH" <<'PY'
import json, os, sys
work, batch = sys.argv[1], int(sys.argv[2])
for name in ("random", "voprf"):
    json.dump({"namespace": name, "originalValue": "{{newUUID}}"}, open(f"{work}/{name}-new.json", "w"))
    json.dump([{"namespace": name, "originalValue": f"known-{i:04d}"} for i in range(200)],
              open(f"{work}/{name}-known.json", "w"))
json.dump({"namespace": "voprf", "originalValues": ["{{newUUID}}"] * batch}, open(f"{work}/voprf-batch.json", "w"))
PY

evaluations() { grep -c "BlindEvaluate OK" "$work/voprf.log" || true; }
ghz_run() { # name, port, pid, method, concurrency, calls, data file
  local before_server before_calls
  before_server=$(cpu_seconds "$voprf_pid")
  before_calls=$(evaluations)
  python3 loadtest/cpu.py --out "$work/$1.cpu.json" --pid "$3" --postmaster "$postmaster" \
    --database vfps_bench_voprf -- ghz --insecure --call "vfps.api.v1.PseudonymService/$4" -c "$5" -n "$6" \
    -D "$work/$7" -O json -o "$work/$1.json" "127.0.0.1:$2"
  awk -v after="$(cpu_seconds "$voprf_pid")" -v before="$before_server" \
    -v calls=$(($(evaluations) - before_calls)) \
    'BEGIN { printf "{\"voprf_server\": %.3f, \"server_calls\": %d}\n", after - before, calls }' \
    >"$work/$1.server.json"
}

say "== warm-up (not counted), which also stores the known values"
for name in random voprf; do
  ghz_run "warm-$name" "$GRPC_PORT" "$vfps_pid" Create "$CONCURRENCY" 6000 "$name-new.json"
  ghz_run "warm-$name-1" "$GRPC_PORT" "$vfps_pid" Create 1 1000 "$name-new.json"
  ghz_run "warm-$name-known" "$GRPC_PORT" "$vfps_pid" Create 4 200 "$name-known.json"
done
ghz_run warm-unbatched "$UNBATCHED_PORT" "$unbatched_pid" Create "$CONCURRENCY" 1000 voprf-new.json
ghz_run warm-batch "$GRPC_PORT" "$vfps_pid" BatchCreate 1 3 voprf-batch.json

say "== Create of new values: $CALLS calls one at a time, then $CONCURRENCY at a time"
ghz_run random-1 "$GRPC_PORT" "$vfps_pid" Create 1 "$CALLS" random-new.json
ghz_run voprf-1 "$GRPC_PORT" "$vfps_pid" Create 1 "$CALLS" voprf-new.json
ghz_run random-c "$GRPC_PORT" "$vfps_pid" Create "$CONCURRENCY" "$CALLS" random-new.json
ghz_run voprf-c "$GRPC_PORT" "$vfps_pid" Create "$CONCURRENCY" "$CALLS" voprf-new.json
ghz_run voprf-c-unbatched "$UNBATCHED_PORT" "$unbatched_pid" Create "$CONCURRENCY" "$CALLS" voprf-new.json
say "== Create of known values, $CONCURRENCY at a time"
ghz_run random-known "$GRPC_PORT" "$vfps_pid" Create "$CONCURRENCY" "$CALLS" random-known.json
ghz_run voprf-known "$GRPC_PORT" "$vfps_pid" Create "$CONCURRENCY" "$CALLS" voprf-known.json
say "== BatchCreate of $BATCH new values, one call at a time"
ghz_run voprf-batch "$GRPC_PORT" "$vfps_pid" BatchCreate 1 $((10 * SCALE)) voprf-batch.json

python3 - "$work" "$CONCURRENCY" "$BATCH" <<'PY'
import json, os, sys
work, concurrency, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(name, per_call=1):
    report = json.load(open(os.path.join(work, name + ".json")))
    ok = (report.get("statusCodeDistribution") or {}).get("OK", 0)
    if ok != report["count"]:
        sys.exit(f"{name}: {report['count'] - ok} of {report['count']} calls failed: "
                 f"{report.get('statusCodeDistribution')} {report.get('errorDistribution')}")
    cpu = json.load(open(os.path.join(work, name + ".cpu.json")))
    server = json.load(open(os.path.join(work, name + ".server.json")))
    values = report["count"] * per_call
    calls = server["server_calls"]
    return {"rate": report["rps"] * per_call,
            "vfps": cpu["service"] * 1e6 / values,
            "vfps_jit": cpu["service_jit"] * 1e6 / values,
            "server": server["voprf_server"] * 1e6 / values,
            "pg": cpu["pg_backends"] * 1e6 / values,
            "per_call": values / calls if calls else None}
runs = [  # label, run, values per call, the random run it is compared with
    ("random, new, 1 at a time", "random-1", 1, "random-1"),
    ("VOPRF, new, 1 at a time", "voprf-1", 1, "random-1"),
    (f"random, new, {concurrency} at a time", "random-c", 1, "random-c"),
    (f"VOPRF, new, {concurrency} at a time", "voprf-c", 1, "random-c"),
    (f"VOPRF, new, {concurrency} at a time, unbatched", "voprf-c-unbatched", 1, "random-c"),
    (f"random, known, {concurrency} at a time", "random-known", 1, "random-known"),
    (f"VOPRF, known, {concurrency} at a time", "voprf-known", 1, "random-known"),
    (f"VOPRF, BatchCreate of {batch}, new", "voprf-batch", batch, "random-c"),
]
print(f"{'run':<44} {'Creates/s':>10} {'vs random':>10} {'CPU µs per Create: vfps':>24}"
      f" {'(JIT)':>7} {'VOPRF server':>13} {'PostgreSQL':>11} {'values per server call':>23}")
for label, name, per_call, base in runs:
    run, ref = load(name, per_call), load(base)
    per_call_text = "-" if run["per_call"] is None else f"{run['per_call']:.1f}"
    print(f"{label:<44} {run['rate']:>10,.0f} {run['rate'] / ref['rate']:>9.2f}x {run['vfps']:>24.1f}"
          f" {run['vfps_jit']:>7.1f} {run['server']:>13.1f} {run['pg']:>11.1f} {per_call_text:>23}")
batched, unbatched = load("voprf-c"), load("voprf-c-unbatched")
print()
print(f"batching: {batched['rate'] / unbatched['rate']:.2f}x the Creates per second of one value per"
      f" server call, {batched['vfps'] + batched['server']:.0f} against"
      f" {unbatched['vfps'] + unbatched['server']:.0f} µs of vfps and server CPU per Create")
PY
