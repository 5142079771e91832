#!/usr/bin/env bash
# CPU profiles of the two hot paths under ghz, with async-profiler (the tools.profiler:async-profiler
# jar from Maven Central, its native library loaded into the running JVM with jcmd):
#
#   new       gRPC Create of new values, caches off (a namespace lookup and an upsert per call)
#   cached    gRPC Create of known values with both caches on (answered from the pseudonym cache)
#   batch     gRPC BatchCreate of BATCH (1,000) new values a call, caches off, at concurrency
#             BATCH_CONCURRENCY (4); REQUESTS and WARMUP count values, i.e. REQUESTS / BATCH calls
#   stream    gRPC CreateStream of BATCH (1,000) creates of new values a call, otherwise as batch
#   sealed    gRPC Create of new values, caches off, in a sealed namespace: the service started
#             with a new key file in Sealing__KeyFile (docs/sealed-originals.md)
#
# For each, the service starts (plain jar, JAVA_OPTS, metrics on as by default; METRICS=no turns
# them off), is warmed up with WARMUP calls, then
# profiled (CPU samples of every thread, EVENT=cpu, perf_events; EVENT=itimer where the kernel
# refuses perf_events) while ghz sends REQUESTS calls at CONCURRENCY. loadtest/profile.py prints
# the top frames by self and total time, by method, class and package, and the time by concern
# (gRPC binding, HTTP/2, protobuf, meters, SecureRandom, the pg client, GC, JIT, ...). The
# collapsed stacks stay in OUT (default target/profiles) for flame graphs.
#
#   loadtest/profile.sh                  # both paths, 100,000 calls each after 60,000 warm-up calls
#   PATHS=cached REQUESTS=50000 loadtest/profile.sh
#
# Needs what loadtest/benchmark.sh needs (a local PostgreSQL, the jar, ghz, grpcurl, python3) and
# Maven Central for the profiler's jar (fetched once with the Maven wrapper).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
SAY_STYLE=section

PATHS=${PATHS:-new cached}
REQUESTS=${REQUESTS:-100000}
WARMUP=${WARMUP:-60000}
CONCURRENCY=${CONCURRENCY:-50}
BATCH=${BATCH:-1000}
BATCH_CONCURRENCY=${BATCH_CONCURRENCY:-4}
EVENT=${EVENT:-cpu}
INTERVAL=${INTERVAL:-1ms}
OUT=${OUT:-target/profiles}
JAR=${JAR:-target/vfps.jar}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA_OPTS=${JAVA_OPTS:-}
PGHOST_BENCH=${PGHOST_BENCH:-127.0.0.1}
PORT=${PORT:-48091}
METRICS=${METRICS:-yes}
export PATH="$HOME/go/bin:$PATH"

library=$(async_profiler_library)
mkdir -p "$OUT"
out=$(realpath "$OUT")

work=$(mktemp -d /tmp/vfps-profile.XXXXXX)
on_exit 'rm -rf "$work"'
pid=""
on_exit 'stop_process "$pid"'
trap "exit 143" TERM INT

fresh_database vfps_profile
connection=$ConnectionStrings__PostgreSQL

for path in $PATHS; do
  caches=false
  [ "$path" = cached ] && caches=true
  # a namespace of its own, created by the service with the key file, so sealed
  namespace=profile
  sealing=()
  if [ "$path" = sealed ]; then
    namespace=profile-sealed
    [ -f "$work/sealing-keys.json" ] ||
      "$JAVA_HOME/bin/java" -jar "$JAR" sealing new-key --out "$work/sealing-keys.json" >/dev/null
    sealing=(Sealing__KeyFile="$work/sealing-keys.json")
  fi
  say "$path: vfps ($JAR $JAVA_OPTS, caches $caches, metrics $METRICS, ${sealing[*]:-no key file})"
  # shellcheck disable=SC2086
  env "${sealing[@]}" ConnectionStrings__PostgreSQL="$connection" \
    Grpc__Port=$PORT Http__Port=$((PORT + 1)) \
    MetricsPort=$([ "$METRICS" = yes ] && echo $((PORT + 2)) || echo 0) \
    Pseudonymization__Caching__Namespaces__IsEnabled=$caches \
    Pseudonymization__Caching__Pseudonyms__IsEnabled=$caches \
    "$JAVA_HOME/bin/java" $JAVA_OPTS -jar "$JAR" >"$work/vfps-$path.log" 2>&1 &
  pid=$!
  wait_for 120 0.5 "" log_has "$work/vfps-$path.log" "started in" || true
  grpcurl -plaintext -d '{"name": "'"$namespace"'", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED", "pseudonymLength": 32}' \
    "127.0.0.1:$PORT" vfps.api.v1.NamespaceService/Create >/dev/null 2>&1 || true
  [ -f "$work/vfps.protoset" ] || grpcurl -plaintext -protoset-out "$work/vfps.protoset" \
    "127.0.0.1:$PORT" describe vfps.api.v1.PseudonymService >/dev/null
  if [ "$path" = cached ]; then
    # a thousand known values, each cached on its first Create during the warm-up
    python3 -c 'import json, sys; json.dump([{"namespace": "profile", "originalValue": f"known-{i}"}
      for i in range(1000)], open(sys.argv[1], "w"))' "$work/known.json"
    data=(-D "$work/known.json")
  elif [ "$path" = batch ]; then
    python3 -c 'import json, sys; json.dump({"namespace": "profile", "originalValues":
      ["{{newUUID}}"] * int(sys.argv[2])}, open(sys.argv[1], "w"))' "$work/batch.json" "$BATCH"
    data=(-D "$work/batch.json")
  elif [ "$path" = stream ]; then
    python3 -c 'import json, sys; json.dump([{"namespace": "profile", "originalValue": "{{newUUID}}"}]
      * int(sys.argv[2]), open(sys.argv[1], "w"))' "$work/stream.json" "$BATCH"
    data=(-D "$work/stream.json")
  else
    data=(-d '{"namespace": "'"$namespace"'", "originalValue": "{{randomString 32}}"}')
  fi
  ghz_call() { # values
    if [ "$path" = batch ] || [ "$path" = stream ]; then
      local method=BatchCreate
      [ "$path" = stream ] && method=CreateStream
      ghz --insecure --protoset "$work/vfps.protoset" --call "vfps.api.v1.PseudonymService/$method" \
        -c "$BATCH_CONCURRENCY" -n "$(($1 / BATCH))" "${data[@]}" -O json "127.0.0.1:$PORT"
    else
      ghz --insecure --protoset "$work/vfps.protoset" --call vfps.api.v1.PseudonymService/Create \
        -c "$CONCURRENCY" -n "$1" "${data[@]}" -O json "127.0.0.1:$PORT"
    fi
  }
  say "$path: warm-up, $WARMUP calls"
  ghz_call "$WARMUP" >/dev/null
  say "$path: profiling ($EVENT every $INTERVAL) under $REQUESTS calls"
  # one argument for jcmd: unquoted, the profiler's options would be read as jcmd's name=value
  "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"start,event=$EVENT,interval=$INTERVAL\"" >"$work/start.txt"
  if ! grep -q 'return code: 0' "$work/start.txt"; then
    cat "$work/start.txt" >&2
    exit 1
  fi
  ghz_call "$REQUESTS" >"$out/$path.ghz.json"
  "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"stop,file=$out/$path.collapsed,collapsed\"" >/dev/null
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
done

for path in $PATHS; do
  python3 loadtest/profile.py "$out/$path.collapsed" "$out/$path.ghz.json" "$path"
done
