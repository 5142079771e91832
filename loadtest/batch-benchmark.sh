#!/usr/bin/env bash
# The batch calls against single calls, in one run on one machine: ghz measures pseudonyms per
# second of gRPC Create (one value a call), BatchCreate (BATCH values a call) and CreateStream (one
# stream of BATCH creates a call), each for new values and for values already stored, and prints
# each batch workload's ratio to single Create of the same kind of values, and, from /proc
# (loadtest/cpu.py), the CPU per pseudonym of the service, of PostgreSQL's backends and of ghz,
# and the service's write system calls per pseudonym. Last, pgbench runs the same multi-row statement
# alone (loadtest/pgbench-batch.sql, BATCH new values a statement, BATCH_CONCURRENCY connections),
# and the script prints the two batch goals of the same run: the service's CPU per batch value
# against a single Create's (at most 0.1x), and BatchCreate's values per second against
# PostgreSQL's alone (at least 0.8x).
# New values come two ways, compared like with like: rendered by ghz from templates per call, and
# made by this script beforehand and sent as serialized messages (BatchCreate and single Create).
#
#   loadtest/batch-benchmark.sh                  # 20,000 single calls, 40 batches and 40 streams
#   SCALE=5 loadtest/batch-benchmark.sh          # five times as many of each
#
# Needs: a local PostgreSQL (it creates the database vfps_bench_batch through
# `runuser -u postgres psql`, or set ADMIN_PSQL), the jar (./mvnw package), ghz on PATH
# (go install github.com/bojand/ghz/cmd/ghz@latest), grpcurl, pgbench, python3.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

SCALE=${SCALE:-1}
BATCH=${BATCH:-1000}
SINGLE_CALLS=$((20000 * SCALE))
BATCH_CALLS=$((40 * SCALE))
CONCURRENCY=${CONCURRENCY:-50}
BATCH_CONCURRENCY=${BATCH_CONCURRENCY:-4}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA_OPTS=${JAVA_OPTS:-}
GRPC_PORT=${GRPC_PORT:-48091}
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-batch-bench.XXXXXX)
on_exit 'rm -rf "$work"'
service_pid=""
on_exit 'stop_process "$service_pid"'

say "== database vfps_bench_batch (fresh)"
fresh_database vfps_bench_batch
postmaster=$(postmaster_pid "$(pg_data_directory)")

say "== vfps ($JAR $JAVA_OPTS)"
# shellcheck disable=SC2086
Grpc__Port=$GRPC_PORT Http__Port=0 MetricsPort=0 start_java "$work/vfps.log" "started in" $JAVA_OPTS -jar "$JAR"
service_pid=$STARTED_PID
grep -m1 "started in" "$work/vfps.log" >&2

grpcurl -plaintext -d '{"name": "bench", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED", "pseudonymLength": 32}' \
  "127.0.0.1:$GRPC_PORT" vfps.api.v1.NamespaceService/Create >/dev/null

# The call data. New values two ways: a fresh UUID per value that ghz renders per call from a
# `{{newUUID}}` template (the JSON below), and UUIDs made here beforehand, each message serialized
# once (protobuf, count-prefixed, sent with --binary-file), which ghz only has to send. Rendering
# and parsing 1,000 templates per call costs ghz CPU on the same two cores that the service and
# PostgreSQL share; made beforehand, new values cost it about what known ones do. A stream sends
# the same messages on every call, so streams of new values use the templates. Known values: the
# same BATCH stored values.
python3 - "$work" "$BATCH" "$SINGLE_CALLS" "$BATCH_CALLS" <<'PY'
import json, os, sys, uuid
work, batch, single_calls, batch_calls = sys.argv[1], *map(int, sys.argv[2:])
def write(name, data):
    json.dump(data, open(os.path.join(work, name), "w"))
def varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | 0x80 if n else low)
        if not n:
            return bytes(out)
def field(number, text):  # a length-delimited protobuf field: namespace is 1, the values are 2
    data = text.encode()
    return varint(number << 3 | 2) + varint(len(data)) + data
def write_messages(name, count, values_per_message):
    with open(os.path.join(work, name), "wb") as out:
        for _ in range(count):
            message = field(1, "bench") + b"".join(
                field(2, str(uuid.uuid4())) for _ in range(values_per_message))
            out.write(varint(len(message)) + message)
known = [f"known-{i:05d}" for i in range(batch)]
write("single-new.json", {"namespace": "bench", "originalValue": "{{newUUID}}"})
write("single-known.json", [{"namespace": "bench", "originalValue": v} for v in known])
write("batch-new.json", {"namespace": "bench", "originalValues": ["{{newUUID}}"] * batch})
write("batch-known.json", {"namespace": "bench", "originalValues": known})
write("stream-new.json", [{"namespace": "bench", "originalValue": "{{newUUID}}"}] * batch)
write("stream-known.json", [{"namespace": "bench", "originalValue": v} for v in known])
write_messages("single-made.bin", single_calls, 1)
write_messages("batch-made.bin", batch_calls, batch)
write_messages("warm-batch-made.bin", 10, batch)
PY

ghz_run() { # name, method, concurrency, calls, data file (.json, or .bin: serialized messages)
  local data=(-D "$work/$5")
  [[ $5 == *.bin ]] && data=(--binary-file "$work/$5")
  python3 loadtest/cpu.py --out "$work/$1.cpu.json" --pid "$service_pid" --postmaster "$postmaster" \
    --database vfps_bench_batch -- ghz --insecure --call "vfps.api.v1.PseudonymService/$2" -c "$3" -n "$4" \
    "${data[@]}" -O json -o "$work/$1.json" "127.0.0.1:$GRPC_PORT"
}

# Every path is warmed up before it is measured: measured first, single Creates of new values ran
# on code the JIT had not yet compiled, which made the batches' ratios look better than they are.
say "== warm-up (not counted), which also stores the known values"
ghz_run warm-single Create "$CONCURRENCY" 5000 single-known.json
ghz_run warm-single-new Create "$CONCURRENCY" 10000 single-new.json
ghz_run warm-batch BatchCreate "$BATCH_CONCURRENCY" 10 batch-new.json
ghz_run warm-batch-made BatchCreate "$BATCH_CONCURRENCY" 10 warm-batch-made.bin
ghz_run warm-stream CreateStream "$BATCH_CONCURRENCY" 10 stream-new.json

say "== Create: $SINGLE_CALLS calls at concurrency $CONCURRENCY: new values (templates, made beforehand), known"
ghz_run single-new Create "$CONCURRENCY" "$SINGLE_CALLS" single-new.json
ghz_run single-made Create "$CONCURRENCY" "$SINGLE_CALLS" single-made.bin
ghz_run single-known Create "$CONCURRENCY" "$SINGLE_CALLS" single-known.json
say "== BatchCreate: $BATCH_CALLS calls of $BATCH values at concurrency $BATCH_CONCURRENCY"
ghz_run batch-new BatchCreate "$BATCH_CONCURRENCY" "$BATCH_CALLS" batch-new.json
ghz_run batch-made BatchCreate "$BATCH_CONCURRENCY" "$BATCH_CALLS" batch-made.bin
ghz_run batch-known BatchCreate "$BATCH_CONCURRENCY" "$BATCH_CALLS" batch-known.json
say "== CreateStream: $BATCH_CALLS streams of $BATCH creates at concurrency $BATCH_CONCURRENCY"
ghz_run stream-new CreateStream "$BATCH_CONCURRENCY" "$BATCH_CALLS" stream-new.json
ghz_run stream-known CreateStream "$BATCH_CONCURRENCY" "$BATCH_CALLS" stream-known.json
say "== pgbench: the batch statement alone, $BATCH_CALLS statements of $BATCH new values at concurrency $BATCH_CONCURRENCY"
export PGPASSWORD=vfps_bench
mkdir -p "$work/pgbench-batch"
(cd "$work/pgbench-batch" && python3 "$OLDPWD/loadtest/cpu.py" --out ../pgbench-batch.cpu.json \
  --postmaster "$postmaster" --database vfps_bench_batch -- pgbench -n -M prepared -h 127.0.0.1 \
  -U vfps_bench -c "$BATCH_CONCURRENCY" -j 2 -t $((BATCH_CALLS / BATCH_CONCURRENCY)) -D batch="$BATCH" \
  -f "$OLDPWD/loadtest/pgbench-batch.sql" vfps_bench_batch >summary.txt 2>&1) ||
  { cat "$work/pgbench-batch/summary.txt" >&2; exit 1; }

python3 - "$work" "$BATCH" <<'PY'
import json, os, re, sys
work, batch = sys.argv[1], int(sys.argv[2])
def rate(name, per_call):
    """Pseudonyms per second; µs of CPU per pseudonym of the service, PostgreSQL and ghz; writes."""
    report = json.load(open(os.path.join(work, name + ".json")))
    ok = (report.get("statusCodeDistribution") or {}).get("OK", 0)
    if ok != report["count"]:
        sys.exit(f"{name}: {report['count'] - ok} of {report['count']} calls failed: "
                 f"{report.get('statusCodeDistribution')} {report.get('errorDistribution')}")
    cpu = json.load(open(os.path.join(work, name + ".cpu.json")))
    pseudonyms = report["count"] * per_call
    per = [cpu[k] * 1e6 / pseudonyms for k in ("service", "pg_backends", "load")]
    written = cpu.get("service_writes")
    return report["rps"] * per_call, per + [None if written is None else written / pseudonyms]
# each batch workload against single Create calls whose call data ghz makes the same way
workloads = [  # label, run, values per call, the single-call run it is compared with
    ("Create, new (templates)", "single-new", 1, "single-new"),
    (f"BatchCreate of {batch}, new (templates)", "batch-new", batch, "single-new"),
    (f"CreateStream of {batch}, new (templates)", "stream-new", batch, "single-new"),
    ("Create, new (made beforehand)", "single-made", 1, "single-made"),
    (f"BatchCreate of {batch}, new (made beforehand)", "batch-made", batch, "single-made"),
    ("Create, known", "single-known", 1, "single-known"),
    (f"BatchCreate of {batch}, known", "batch-known", batch, "single-known"),
    (f"CreateStream of {batch}, known", "stream-known", batch, "single-known"),
]
print(f"{'workload':<44} {'pseudonyms/s':>13} {'vs Create':>10}"
      f" {'CPU µs per pseudonym: service':>30} {'PostgreSQL':>11} {'ghz':>6}"
      f" {'service writes per pseudonym':>29}")
for label, name, per_call, single in workloads:
    value, per = rate(name, per_call)
    ratio = value / rate(single, 1)[0]
    written = "-" if per[3] is None else f"{per[3]:.3f}"
    print(f"{label:<44} {value:>13,.0f} {ratio:>9.1f}x {per[0]:>30.1f} {per[1]:>11.1f} {per[2]:>6.1f}"
          f" {written:>29}")
# the batch goals, from this run
summary = open(os.path.join(work, "pgbench-batch", "summary.txt")).read()
tps = float(re.search(r"tps = ([0-9.]+) \(without initial connection time\)", summary).group(1))
alone = tps * batch
pg_cpu = json.load(open(os.path.join(work, "pgbench-batch.cpu.json")))["pg_backends"]
pg_rows = int(re.search(r"number of transactions actually processed: (\d+)", summary).group(1)) * batch
batch_rate, batch_per = rate("batch-made", batch)
_, single_per = rate("single-made", 1)
print()
print(f"PostgreSQL alone, the batch statement: {alone:,.0f} values/s, "
      f"{pg_cpu * 1e6 / pg_rows:.1f} µs of its backends' CPU per value")
print(f"goal: the service's CPU per BatchCreate value / per single Create (new values, made "
      f"beforehand): {batch_per[0]:.1f} / {single_per[0]:.1f} µs = "
      f"{batch_per[0] / single_per[0]:.2f}x (at most 0.1x)")
print(f"goal: BatchCreate values per second / PostgreSQL's alone: {batch_rate:,.0f} / {alone:,.0f} = "
      f"{batch_rate / alone:.2f}x (at least 0.8x)")
PY
