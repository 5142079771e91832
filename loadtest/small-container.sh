#!/usr/bin/env bash
# The small-container profile, measured: the service in a cgroup limited to one CPU
# (cpu.cfs_quota_us = cpu.cfs_period_us) and 128 MiB (memory.limit_in_bytes), the mechanism Docker
# uses, under the same ghz load as without limits. Prints throughput, latency, errors, the peak
# memory of the cgroup and OOM kills for both, and the ratio. Needs root and cgroup v1 or v2 with
# the cpu and memory controllers (loadtest/lib.sh), a local PostgreSQL, ghz and grpcurl, and the
# jar (and AOT cache) from ./mvnw package.
#
#   loadtest/small-container.sh                      # 50,000 creates at concurrency 50
#   SMALL_OPTS="-XX:+UseSerialGC ..." loadtest/small-container.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. loadtest/lib.sh

REQUESTS=${REQUESTS:-50000}
CONCURRENCY=${CONCURRENCY:-50}
# the JVM settings of the profile (README, "Small containers"); also in Dockerfile and the chart
SMALL_OPTS=${SMALL_OPTS:-"-XX:+UseSerialGC -Xmx32m -Xss256k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:+ExitOnOutOfMemoryError"}
PORT=${PORT:-48281}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"
group=vfps-small-$$
work=$(mktemp -d /tmp/vfps-small.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  cgroup_remove "$group"
  rm -rf "$work"
}
trap cleanup EXIT

fresh_database vfps_small
export Grpc__Port=$PORT Http__Port=$((PORT + 1)) MetricsPort=0

if [ -z "$(cgroup_version)" ]; then
  echo "no writable cgroup v1 or v2 with the cpu and memory controllers (run as root)" >&2
  exit 1
fi
cgroup_create "$group" 128

run() { # label, limited (yes|no), JAVA_OPTS
  local label=$1 limited=$2
  if [ "$limited" = yes ]; then
    MALLOC_ARENA_MAX=2 JAVA_OPTS="$3" \
      sh -c "$(cgroup_enter "$group") exec bin/vfps" \
      >"$work/$label.log" 2>&1 &
  else
    JAVA_OPTS="$3" bin/vfps >"$work/$label.log" 2>&1 &
  fi
  pid=$!
  for _ in $(seq 1 300); do
    grpcurl -plaintext "127.0.0.1:$PORT" grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING && break
    sleep 0.2
  done
  grpcurl -plaintext -d "{\"name\": \"$label\", \"pseudonymLength\": 32}" "127.0.0.1:$PORT" \
    vfps.api.v1.NamespaceService/Create >/dev/null
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n 5000 \
    -d "{\"namespace\": \"$label\", \"originalValue\": \"warm-{{randomString 16}}\"}" "127.0.0.1:$PORT" >/dev/null
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n "$REQUESTS" -O json \
    -d "{\"namespace\": \"$label\", \"originalValue\": \"{{randomString 32}}\"}" "127.0.0.1:$PORT" \
    >"$work/$label.json"
  local rss_kb anon=0
  rss_kb=$(ps -o rss= -p "$(pgrep -P "$pid" java || echo "$pid")" 2>/dev/null || echo 0)
  if [ "$limited" = yes ]; then
    anon=$(cgroup_anonymous "$group")
  fi
  alive=yes
  kill -0 "$pid" 2>/dev/null || alive=no
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  if [ "$limited" = yes ]; then
    peak=$(cgroup_peak "$group")
    ooms=$(cgroup_oom_kills "$group")
  else
    peak=$((rss_kb * 1024))
    ooms=0
  fi
  echo "$label $alive $peak ${ooms:-0} $anon" >>"$work/memory.txt"
}

run unlimited no "${UNLIMITED_OPTS:-}"
run small yes "$SMALL_OPTS"

python3 - "$work" "$REQUESTS" "$CONCURRENCY" "$SMALL_OPTS" <<'PY'
import json, sys, os
work, requests, concurrency, opts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
memory = {l.split()[0]: l.split()[1:] for l in open(os.path.join(work, "memory.txt"))}
rows = {}
for label in ("unlimited", "small"):
    r = json.load(open(os.path.join(work, label + ".json")))
    pct = {p["percentage"]: p["latency"] / 1e6 for p in r.get("latencyDistribution") or []}
    ok = (r.get("statusCodeDistribution") or {}).get("OK", 0)
    rows[label] = (r["rps"], pct.get(50), pct.get(99), r["count"] - ok)
print(f"\n{requests} gRPC creates of new values at concurrency {concurrency}; small = 1 CPU, 128 MiB, JAVA_OPTS={opts}\n")
print("| run | requests/s | p50 ms | p99 ms | errors | peak memory MiB | OOM kills | survived |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for label, (rps, p50, p99, errors) in rows.items():
    alive, peak, ooms, anon = memory[label]
    if label == "small":
        kind = f"cgroup peak incl. page cache; anonymous {int(anon)/2**20:.1f} at end"
    else:
        kind = "RSS at end"
    print(f"| {label} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {errors} | {int(peak)/2**20:.1f} ({kind}) | {ooms} | {alive} |")
print(f"\nsmall / unlimited throughput: {rows['small'][0] / rows['unlimited'][0]:.2f}")
PY
