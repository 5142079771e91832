#!/usr/bin/env bash
# Cold start, measured: RUNS times (default 9) start the service against an already migrated
# database, wait until gRPC listens, send a first and a second Create, stop it. Prints the median
# time from exec to listening, to the first answer and to ready (the log's start line, written when
# /readyz and gRPC health turn ready), and the median latency of the first and
# second request, for the plain jar and for the jar with the build's AOT cache (bin/vfps).
# PROFILE=yes adds one start per mode under async-profiler (CPU samples of every thread from the
# JVM's start to the first answer; scripts/lib.sh fetches the profiler) and prints where that CPU
# went by library, and how many classes were loaded by then (and how many came from the AOT cache).
# PROFILE=requests adds one start per mode that waits until ready, sends a first Create, then
# profiles the next five, each on a new connection as a new client's, and prints their latencies
# and where their CPU went: what a replica that just turned ready spends on its first clients.
#
#   loadtest/cold-start.sh            # both modes
#   RUNS=15 MODES=aot loadtest/cold-start.sh
#   RUNS=3 PROFILE=yes loadtest/cold-start.sh
#   RUNS=1 PROFILE=requests MODES=aot loadtest/cold-start.sh
#   SERIES=20 MODES=aot loadtest/cold-start.sh
#   SERIES=20 MODES=aot JAVA_OPTS=-XX:CompileThresholdScaling=10 loadtest/cold-start.sh
#
# Needs a local PostgreSQL (database vfps_coldstart is created through `runuser -u postgres psql`,
# or ADMIN_PSQL), ghz and grpcurl on PATH, the jar and cache from ./mvnw package on JDK 25, python3.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

RUNS=${RUNS:-9}
SERIES=${SERIES:-0}
MODES=${MODES:-jar aot}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export JAVA_HOME
PORT=${PORT:-48181}
export PATH="$HOME/go/bin:$PATH"
work=$(mktemp -d /tmp/vfps-cold.XXXXXX)
on_exit 'rm -rf "$work"'
pid=""
on_exit 'stop_process "$pid"'

fresh_database vfps_coldstart
export Grpc__Port=$PORT Http__Port=$((PORT + 1)) MetricsPort=0

start() { # mode [JVM options]
  if [ "$1" = aot ]; then
    JAVA_OPTS="${JAVA_OPTS:-} ${2:-}" bin/vfps >"$work/vfps.log" 2>&1 &
  else
    # shellcheck disable=SC2086
    "$JAVA_HOME/bin/java" ${JAVA_OPTS:-} ${2:-} -jar target/vfps.jar >"$work/vfps.log" 2>&1 &
  fi
  pid=$!
}

stop() {
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
}

# one run to create the namespace and save the descriptors, so ghz needs no reflection later
start jar
wait_for 20 0.1 "" grpcurl -plaintext "127.0.0.1:$PORT" list >/dev/null 2>&1 || true
grpcurl -plaintext -d '{"name": "cold", "pseudonymLength": 16}' "127.0.0.1:$PORT" vfps.api.v1.NamespaceService/Create >/dev/null
grpcurl -plaintext -protoset-out "$work/vfps.protoset" "127.0.0.1:$PORT" describe vfps.api.v1.PseudonymService >/dev/null
stop

create() { # name -> ghz JSON
  ghz --insecure --protoset "$work/vfps.protoset" --call vfps.api.v1.PseudonymService/Create \
    -n 1 -c 1 -d "{\"namespace\": \"cold\", \"originalValue\": \"$1\"}" -O json "127.0.0.1:$PORT"
}

series() { # mode run: SERIES Creates on one connection; prints a CSV line of their latencies
  ghz --insecure --protoset "$work/vfps.protoset" --call vfps.api.v1.PseudonymService/Create \
    -n "$SERIES" -c 1 -O json "127.0.0.1:$PORT" \
    -d "{\"namespace\": \"cold\", \"originalValue\": \"series-$1-$2-{{.RequestNumber}}\"}" |
    python3 -c '
import json, sys
data = json.load(sys.stdin)
if (data.get("statusCodeDistribution") or {}).get("OK") != int(sys.argv[2]):
    raise SystemExit("a Create failed: " + str(data.get("errorDistribution")))
calls = sorted(data["details"], key=lambda call: call["timestamp"])
print(sys.argv[1] + "," + ",".join("%.1f" % (call["latency"] / 1e6) for call in calls))
' "$1" "$SERIES"
}

if [ "$SERIES" -gt 0 ]; then
  : >"$work/series.csv"
  for mode in $MODES; do
    for run in $(seq 1 "$RUNS"); do
      start "$mode"
      until port_open 127.0.0.1 "$PORT"; do sleep 0.005; done
      series "$mode" "$run" >>"$work/series.csv"
      stop
    done
  done
  python3 - "$work/series.csv" "$RUNS" "$SERIES" <<'PY'
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1])))
print(f"\n{sys.argv[3]} Creates one after the other on one connection, from the moment gRPC listens;"
      f" latency in ms, median and slowest of {sys.argv[2]} runs\n")
modes = list(dict.fromkeys(row[0] for row in rows))
label = lambda mode: "java -jar" if mode == "jar" else "bin/vfps (AOT cache)"
print("| request | " + " | ".join(f"{label(m)}: median | slowest" for m in modes) + " |")
print("|---:|" + "---:|---:|" * len(modes))
for i in range(int(sys.argv[3])):
    cells = []
    for mode in modes:
        values = [float(row[i + 1]) for row in rows if row[0] == mode]
        cells += [f"{statistics.median(values):.1f}", f"{max(values):.1f}"]
    print(f"| {i + 1} | " + " | ".join(cells) + " |")
for mode in modes:
    later = [float(v) for row in rows if row[0] == mode for v in row[2:]]
    over = sum(v >= 10 for v in later)
    print(f"\n{label(mode)}: requests 2 to {sys.argv[3]}: median {statistics.median(later):.1f} ms,"
          f" {over} of {len(later)} took 10 ms or more")
PY
  exit 0
fi

echo "mode,listening_ms,first_answer_ms,ready_ms,first_request_ms,second_request_ms" >"$work/runs.csv"
for mode in $MODES; do
  for run in $(seq 1 "$RUNS"); do
    t0=$(now_ms)
    start "$mode"
    # polled this often, not through wait_for: the time to listening is measured
    until port_open 127.0.0.1 "$PORT"; do sleep 0.005; done
    listening=$(($(now_ms) - t0))
    first=$(create "run-$mode-$run-a")
    answered=$(($(now_ms) - t0))
    second=$(create "run-$mode-$run-b")
    # ready may come after the second answer: the start line tells when
    wait_for 60 0.01 "$pid" grep -q " started in " "$work/vfps.log"
    stop
    python3 - "$mode" "$listening" "$answered" "$first" "$second" "$t0" "$work/vfps.log" \
      >>"$work/runs.csv" <<'PY'
import datetime, json, sys
mode, listening, answered, first, second, t0, log = sys.argv[1:]
started = next(line for line in open(log) if " started in " in line)
stamp = datetime.datetime.fromisoformat(started.split()[0].replace("Z", "+00:00"))
ready = round(stamp.timestamp() * 1000) - int(t0)
def latency(report):
    data = json.loads(report)
    if (data.get("statusCodeDistribution") or {}).get("OK") != 1:
        raise SystemExit(f"a Create failed: {data.get('errorDistribution')}")
    return data["average"] / 1e6
print(f"{mode},{listening},{answered},{ready},{latency(first):.1f},{latency(second):.1f}")
PY
  done
done

python3 - "$work/runs.csv" "$RUNS" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"\nmedians of {sys.argv[2]} runs (ms): exec -> listening, -> first answer, -> ready; first and second Create latency\n")
print("| mode | listening | first answer | ready | first request | second request |")
print("|---|---:|---:|---:|---:|---:|")
for mode in dict.fromkeys(r["mode"] for r in rows):
    runs = [r for r in rows if r["mode"] == mode]
    med = lambda key: statistics.median(float(r[key]) for r in runs)
    label = "java -jar" if mode == "jar" else "bin/vfps (AOT cache)"
    print(f"| {label} | {med('listening_ms'):.0f} | {med('first_answer_ms'):.0f} | {med('ready_ms'):.0f} | "
          f"{med('first_request_ms'):.1f} | {med('second_request_ms'):.1f} |")
PY

if [ "${PROFILE:-no}" = yes ]; then
  library=$(async_profiler_library)
  for mode in $MODES; do
    start "$mode" "-agentpath:$library=start,event=cpu,interval=1ms"
    # polled this often, not through wait_for: the time to listening is measured
    until port_open 127.0.0.1 "$PORT"; do sleep 0.005; done
    create "profile-$mode" >/dev/null
    "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"stop,file=$work/$mode.collapsed,collapsed\"" >/dev/null
    counters=$("$JAVA_HOME/bin/jcmd" "$pid" PerfCounter.print)
    loaded=$(sed -n 's/^java.cls.loadedClasses=//p' <<<"$counters")
    shared=$(sed -n 's/^java.cls.sharedLoadedClasses=//p' <<<"$counters")
    stop
    python3 loadtest/profile.py --startup "$work/$mode.collapsed" - \
      "$([ "$mode" = aot ] && echo "bin/vfps (AOT cache)" || echo "java -jar"), exec to the first answer"
    echo
    echo "classes loaded by the first answer: $((loaded + ${shared:-0})), of them from the CDS or AOT cache: ${shared:-0}"
  done
fi
if [ "${PROFILE:-no}" = requests ]; then
  library=$(async_profiler_library)
  for mode in $MODES; do
    label=$([ "$mode" = aot ] && echo "bin/vfps (AOT cache)" || echo "java -jar")
    # loaded at start, commanded through jcmd: the JDK warns about agents loaded later
    start "$mode" "-agentpath:$library"
    wait_for 60 0.05 "$pid" grep -q " started in " "$work/vfps.log"
    create "requests-$mode-first" >/dev/null
    "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"start,event=cpu,interval=1ms\"" >/dev/null
    latencies=""
    for i in 2 3 4 5 6; do
      latencies="$latencies $(create "requests-$mode-$i" | python3 -c '
import json, sys
data = json.load(sys.stdin)
if (data.get("statusCodeDistribution") or {}).get("OK") != 1:
    raise SystemExit("a Create failed: " + str(data.get("errorDistribution")))
print("%.1f" % (data["average"] / 1e6))
')"
    done
    "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"stop,file=$work/$mode-requests.collapsed,collapsed\"" >/dev/null
    stop
    echo
    echo "$label, once ready: Creates 2 to 6, each on a new connection, took$latencies ms"
    python3 loadtest/profile.py --startup "$work/$mode-requests.collapsed" - \
      "$label, the CPU of Creates 2 to 6 once ready (1 ms samples)"
  done
fi
