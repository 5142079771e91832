#!/usr/bin/env bash
# A pseudonymize CSV job against BatchCreate, in one run on one machine: the same service, the
# same database, the same number of new values. ghz sends ROWS new values to BatchCreate in calls
# of BATCH (made beforehand, serialized, as loadtest/batch-benchmark.sh sends them), once one call
# at a time, as a job writes its chunks, and once at BATCH_CONCURRENCY; then one job pseudonymizes
# a file of ROWS new values (uploaded to S3 beforehand, not timed), from its start until it is
# completed. Prints values per second, the job's ratio to each BatchCreate run (the goal: at least
# 0.8x), and, from /proc (loadtest/cpu.py), the CPU per value of the service and of PostgreSQL's
# backends.
#
#   loadtest/csv-job-benchmark.sh              # 1,000,000 rows
#   ROWS=200000 loadtest/csv-job-benchmark.sh  # shorter
#
# Needs: a local PostgreSQL (it creates the database vfps_bench_csv through
# `runuser -u postgres psql`, or set ADMIN_PSQL), the jar (./mvnw package), ghz and grpcurl on PATH
# (go install github.com/bojand/ghz/cmd/ghz@latest, github.com/fullstorydev/grpcurl/cmd/grpcurl@latest),
# curl, jq, python3. The S3 server is the service's own development store (loadtest/S3Server.java).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ROWS=${ROWS:-1000000}
BATCH=${BATCH:-1000}
BATCH_CONCURRENCY=${BATCH_CONCURRENCY:-4}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
JAVA_OPTS=${JAVA_OPTS:-}
GRPC_PORT=${GRPC_PORT:-48101}
HTTP_PORT=${HTTP_PORT:-48100}
S3_PORT=${S3_PORT:-48102}
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-csv-bench.XXXXXX)
on_exit 'rm -rf "$work"'
service_pid=""
s3_pid=""
on_exit 'stop_process "$s3_pid"'
on_exit 'stop_process "$service_pid"'

say "== database vfps_bench_csv (fresh)"
fresh_database vfps_bench_csv
postmaster=$(postmaster_pid "$(pg_data_directory)")

say "== S3 (loadtest/S3Server.java)"
mkdir -p "$work/s3"
"$JAVA" -cp "$JAR" loadtest/S3Server.java "$work/s3" "$S3_PORT" >"$work/s3.env" 2>"$work/s3.log" &
s3_pid=$!
s3_started=0
wait_for 60 0.5 "$s3_pid" log_has "$work/s3.env" '^S3__ObjectRetentionDays' || s3_started=$?
[ "$s3_started" -ne 2 ] || { cat "$work/s3.log" >&2; exit 1; }
while IFS= read -r setting; do export "${setting?}"; done < <(grep "^S3__" "$work/s3.env")

say "== vfps ($JAR $JAVA_OPTS)"
# shellcheck disable=SC2086
Grpc__Port=$GRPC_PORT Http__Port=$HTTP_PORT MetricsPort=0 \
  start_java "$work/vfps.log" "started in" $JAVA_OPTS -jar "$JAR"
service_pid=$STARTED_PID
grep -m1 "started in" "$work/vfps.log" >&2

for ns in bench bench-job bench-warm; do
  grpcurl -plaintext -d "{\"name\": \"$ns\", \"pseudonymGenerationMethod\": \"PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED\", \"pseudonymLength\": 32}" \
    "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null
done

say "== making $ROWS new values for BatchCreate (two runs) and a file of $ROWS new values"
python3 - "$work" "$BATCH" "$ROWS" <<'PY'
import os, sys, uuid
work, batch, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | 0x80 if n else low)
        if not n:
            return bytes(out)
def field(number, text):
    data = text.encode()
    return varint(number << 3 | 2) + varint(len(data)) + data
def messages(name, namespace, calls):
    with open(os.path.join(work, name), "wb") as out:
        for _ in range(calls):
            message = field(1, namespace) + b"".join(field(2, str(uuid.uuid4())) for _ in range(batch))
            out.write(varint(len(message)) + message)
messages("one.bin", "bench", rows // batch)
messages("many.bin", "bench", rows // batch)
messages("warm.bin", "bench-warm", 50)
with open(os.path.join(work, "input.csv"), "w") as out:
    out.write("patient_id,visit\n")
    for i in range(rows):
        out.write(f"{uuid.uuid4()},{i % 97}\n")
with open(os.path.join(work, "warm.csv"), "w") as out:
    out.write("patient_id,visit\n")
    for i in range(50 * batch):
        out.write(f"{uuid.uuid4()},{i % 97}\n")
PY

ghz_run() { # name, concurrency, calls, data file
  python3 loadtest/cpu.py --out "$work/$1.cpu.json" --pid "$service_pid" --postmaster "$postmaster" \
    --database vfps_bench_csv -- ghz --insecure --call vfps.api.v1.PseudonymService/BatchCreate \
    -c "$2" -n "$3" --binary-file "$work/$4" -O json -o "$work/$1.json" "127.0.0.1:$GRPC_PORT"
}

# submit FILE NAMESPACE: creates, uploads and starts a pseudonymize job; prints its id
submit() {
  local job id
  job=$(curl -fsS -X POST "localhost:$HTTP_PORT/v1/csv-jobs" -H 'Content-Type: application/json' \
    -d "{\"direction\": \"CSV_JOB_DIRECTION_PSEUDONYMIZE\", \"fileName\": \"bench.csv\", \"columnMappings\": [{\"sourceColumn\": \"patient_id\", \"namespace\": \"$2\"}]}")
  id=$(jq -r .id <<<"$job")
  mapfile -t headers < <(jq -r '.uploadHeaders | to_entries[] | "-H", "\(.key): \(.value)"' <<<"$job")
  curl -sS --fail-with-body -X PUT "${headers[@]}" --data-binary "@$1" "$(jq -r .uploadUrl <<<"$job")" >/dev/null
  printf '%s' "$id"
}
export -f submit 2>/dev/null || true

# await ID: polls until the job ends; fails unless it completed
await_job() {
  while true; do
    status=$(curl -fsS "localhost:$HTTP_PORT/v1/csv-jobs/$1" | jq -r .status)
    case $status in
      CSV_JOB_STATUS_COMPLETED) return 0 ;;
      CSV_JOB_STATUS_FAILED | CSV_JOB_STATUS_CANCELLED)
        curl -fsS "localhost:$HTTP_PORT/v1/csv-jobs/$1" >&2; return 1 ;;
    esac
    sleep 0.2
  done
}

say "== warm-up (not counted): 50 BatchCreate calls, a job of $((50 * BATCH)) rows"
ghz_run warm 1 50 warm.bin
warm=$(submit "$work/warm.csv" bench-warm)
curl -fsS -X POST "localhost:$HTTP_PORT/v1/csv-jobs/$warm:start" -H 'Content-Type: application/json' -d '{}' >/dev/null
await_job "$warm"

say "== BatchCreate: $((ROWS / BATCH)) calls of $BATCH new values, one at a time"
ghz_run batch-one 1 $((ROWS / BATCH)) one.bin
say "== BatchCreate: $((ROWS / BATCH)) calls of $BATCH new values at concurrency $BATCH_CONCURRENCY"
ghz_run batch-many "$BATCH_CONCURRENCY" $((ROWS / BATCH)) many.bin

say "== a pseudonymize job of $ROWS new values ($(du -h "$work/input.csv" | cut -f1)), from its start to its end"
id=$(submit "$work/input.csv" bench-job)
cat >"$work/run-job.sh" <<SH
#!/usr/bin/env bash
set -euo pipefail
$(declare -f await_job)
HTTP_PORT=$HTTP_PORT
curl -fsS -X POST "localhost:$HTTP_PORT/v1/csv-jobs/$id:start" -H 'Content-Type: application/json' -d '{}' >/dev/null
start=\$(date +%s.%N)
await_job "$id"
end=\$(date +%s.%N)
python3 -c "print(\$end - \$start)" >"$work/job.seconds"
SH
chmod +x "$work/run-job.sh"
python3 loadtest/cpu.py --out "$work/job.cpu.json" --pid "$service_pid" --postmaster "$postmaster" \
  --database vfps_bench_csv -- "$work/run-job.sh"
curl -fsS "localhost:$HTTP_PORT/v1/csv-jobs/$id" >"$work/job.json"

python3 - "$work" "$ROWS" "$BATCH" "$BATCH_CONCURRENCY" <<'PY'
import json, os, sys
work, rows, batch, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def load(name):
    return json.load(open(os.path.join(work, name)))
def batch_rate(name):
    report = load(name + ".json")
    ok = (report.get("statusCodeDistribution") or {}).get("OK", 0)
    if ok != report["count"]:
        sys.exit(f"{name}: {report['count'] - ok} of {report['count']} calls failed: "
                 f"{report.get('errorDistribution')}")
    return report["rps"] * batch, load(name + ".cpu.json"), report["count"] * batch
job = load("job.json")
if job["rowsProcessed"] != rows:
    sys.exit(f"the job processed {job['rowsProcessed']} of {rows} rows")
seconds = float(open(os.path.join(work, "job.seconds")).read())
runs = [
    ("BatchCreate, one call at a time", *batch_rate("batch-one")),
    (f"BatchCreate, {concurrency} calls at a time", *batch_rate("batch-many")),
    ("pseudonymize job (start to completed)", rows / seconds, load("job.cpu.json"), rows),
]
print(f"{'run':<40} {'values/s':>10} {'CPU µs per value: service':>27} {'PostgreSQL':>11}")
for label, rate, cpu, values in runs:
    print(f"{label:<40} {rate:>10,.0f} {cpu['service'] * 1e6 / values:>27.1f}"
          f" {cpu['pg_backends'] * 1e6 / values:>11.1f}")
job_rate = runs[2][1]
print()
for label, rate, _, _ in runs[:2]:
    print(f"goal: the job's values per second / {label}'s: {job_rate:,.0f} / {rate:,.0f} ="
          f" {job_rate / rate:.2f}x (at least 0.8x)")
PY
