#!/usr/bin/env bash
# The small-container profile, measured: the service in a cgroup limited to one CPU
# (cpu.cfs_quota_us = cpu.cfs_period_us) and 128 MiB (memory.limit_in_bytes), the mechanism Docker
# uses, under the same ghz load as without limits. Prints throughput, latency, errors, the peak
# memory of the cgroup and OOM kills for both, and the ratio; and where the machine's CPU went
# while ghz ran (loadtest/cpu.py: the service, PostgreSQL's backends, ghz, the whole machine).
# Needs root and cgroup v1 or v2 with the cpu and memory controllers (scripts/lib.sh), a local
# PostgreSQL, ghz and grpcurl, and the jar (and AOT cache) from ./mvnw package.
#
#   loadtest/small-container.sh                      # 50,000 creates at concurrency 50
#   SMALL_OPTS="-XX:+UseSerialGC ..." loadtest/small-container.sh
#   MIX=overload loadtest/small-container.sh         # the overload mix, small container only
#   PROFILE=yes loadtest/small-container.sh          # and where the small container's CPU goes
#
# PROFILE=yes adds a third run in the small container with async-profiler loaded (scripts/lib.sh
# fetches it): CPU samples of every thread (1 ms) while ghz sends the measured creates, summarised
# by loadtest/profile.py. The profiler's own memory does not fit 128 MiB beside the service, so that
# run's cgroup has the same one CPU and 256 MiB; its throughput and memory are printed as their own
# row. The collapsed stacks stay in OUT (default target/profiles).
#
# MIX=overload runs the service in the small container only, with NAMESPACES namespaces (default
# 20,000), and sends 20 REST and 20 gRPC GetAlls (every namespace each) at once; when they are
# answered, the same again together with a burst of BURST (2,000) concurrent gRPC Creates over 20
# connections. It prints what each part was
# answered, the refusals the service counted by bound, the cgroup's peak and anonymous memory, the
# OOM kills, and whether the service still answers a GetAll afterwards.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

REQUESTS=${REQUESTS:-50000}
CONCURRENCY=${CONCURRENCY:-50}
CONNECTIONS=${CONNECTIONS:-1} # ghz's connections for the measured creates; each one is served by one event loop
# the JVM settings of the profile (docs/benchmarks.md, "The small container"); also in Dockerfile and the chart
SMALL_OPTS=${SMALL_OPTS:-"-XX:+UseSerialGC -Xmx32m -Xmn6m -Xss256k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:+ExitOnOutOfMemoryError"}
PORT=${PORT:-48281}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"
group=vfps-small-$$
work=$(mktemp -d /tmp/vfps-small.XXXXXX)
on_exit 'rm -rf "$work"'
on_exit 'cgroup_remove "$group"'
pid=""
on_exit 'stop_process "$pid"'

fresh_database vfps_small
postmaster=$(postmaster_pid "$(pg_data_directory)")
export Grpc__Port=$PORT Http__Port=$((PORT + 1)) MetricsPort=0

if [ -z "$(cgroup_version)" ]; then
  echo "no writable cgroup v1 or v2 with the cpu and memory controllers (run as root)" >&2
  exit 1
fi
cgroup_create "$group" 128
limited_group=$group

run() { # label, limited (yes|no), JAVA_OPTS[, profiled (yes|no)]
  local label=$1 limited=$2 profiled=${4:-no}
  if [ "$limited" = yes ]; then
    MALLOC_ARENA_MAX=2 JAVA_OPTS="$3" \
      sh -c "$(cgroup_enter "$limited_group") exec bin/vfps" \
      >"$work/$label.log" 2>&1 &
  else
    JAVA_OPTS="$3" bin/vfps >"$work/$label.log" 2>&1 &
  fi
  pid=$!
  wait_for 60 0.2 "" grpc_serving "127.0.0.1:$PORT" || true
  grpcurl -plaintext -d "{\"name\": \"$label\", \"pseudonymLength\": 32}" "127.0.0.1:$PORT" \
    vfps.api.v1.NamespaceService/Create >/dev/null
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n 5000 \
    -d "{\"namespace\": \"$label\", \"originalValue\": \"warm-{{randomString 16}}\"}" "127.0.0.1:$PORT" >/dev/null
  if [ "$profiled" = yes ]; then
    "$JAVA_HOME/bin/jcmd" "$pid" "JVMTI.agent_load $library \"start,event=cpu,interval=1ms\"" >/dev/null
  fi
  local throttled_before="0 0 0"
  if [ "$limited" = yes ]; then
    throttled_before=$(cgroup_throttled "$limited_group")
  fi
  python3 loadtest/cpu.py --out "$work/$label.cpu.json" --pid "$pid" --postmaster "$postmaster" \
    --database vfps_small -- \
    ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n "$REQUESTS" \
    --connections "$CONNECTIONS" -O json \
    -d "{\"namespace\": \"$label\", \"originalValue\": \"{{randomString 32}}\"}" "127.0.0.1:$PORT" \
    >"$work/$label.json"
  if [ "$limited" = yes ]; then
    echo "$throttled_before $(cgroup_throttled "$limited_group")" >"$work/$label.throttled"
  fi
  if [ "$profiled" = yes ]; then
    mkdir -p "$OUT"
    "$JAVA_HOME/bin/jcmd" "$pid" \
      "JVMTI.agent_load $library \"stop,file=$(realpath "$OUT")/small-container.collapsed,collapsed\"" >/dev/null
  fi
  local rss_kb anon=0
  rss_kb=$(ps -o rss= -p "$(pgrep -P "$pid" java || echo "$pid")" 2>/dev/null || echo 0)
  if [ "$limited" = yes ]; then
    anon=$(cgroup_anonymous "$limited_group")
  fi
  alive=yes
  kill -0 "$pid" 2>/dev/null || alive=no
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  if [ "$limited" = yes ]; then
    peak=$(cgroup_peak "$limited_group")
    ooms=$(cgroup_oom_kills "$limited_group")
  else
    peak=$((rss_kb * 1024))
    ooms=0
  fi
  echo "$label $alive $peak ${ooms:-0} $anon" >>"$work/memory.txt"
}

overload() {
  local namespaces=${NAMESPACES:-20000} burst=${BURST:-2000} metrics=$((PORT + 2))
  MALLOC_ARENA_MAX=2 JAVA_OPTS="$SMALL_OPTS" MetricsPort=$metrics \
    sh -c "$(cgroup_enter "$group") exec bin/vfps" >"$work/overload.log" 2>&1 &
  pid=$!
  wait_for 60 0.2 "" grpc_serving "127.0.0.1:$PORT" || true
  grpcurl -plaintext -d '{"name": "overload", "description": "one of the overload mix", "pseudonymLength": 16}' \
    "127.0.0.1:$PORT" vfps.api.v1.NamespaceService/Create >/dev/null
  # the other namespaces as copies of the first, straight into the table: quicker than Creates
  admin_psql -q -d vfps_small -v ON_ERROR_STOP=1 -c \
    "INSERT INTO namespaces SELECT n.name || '-' || lpad(i::text, 5, '0'), n.description,
       n.pseudonym_generation_method, n.pseudonym_length, n.pseudonym_prefix, n.pseudonym_suffix,
       n.created_at, n.last_updated_at
     FROM namespaces n, generate_series(2, $namespaces) i WHERE n.name = 'overload'"
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c 10 -n 2000 \
    -d '{"namespace": "overload", "originalValue": "warm-{{randomString 16}}"}' "127.0.0.1:$PORT" >/dev/null

  getalls() { # label: 20 REST and 20 gRPC GetAlls at once, in the background
    local i
    for i in $(seq 1 20); do
      curl -s -o /dev/null -m 120 -w '%{http_code} %{size_download}\n' \
        "http://127.0.0.1:$((PORT + 1))/v1/namespaces" >"$work/rest-$1.$i" 2>&1 &
      lists+=($!)
    done
    ghz --insecure --call vfps.api.v1.NamespaceService/GetAll -c 20 -n 20 -t 120s -O json -d '{}' \
      "127.0.0.1:$PORT" >"$work/grpc-$1.json" &
    lists+=($!)
  }
  local lists=()
  getalls alone
  wait "${lists[@]}" || true
  lists=()
  getalls mixed
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$burst" -n "$burst" --connections 20 \
    -t 60s -O json -d '{"namespace": "overload", "originalValue": "{{randomString 32}}"}' \
    "127.0.0.1:$PORT" >"$work/burst.json"
  wait "${lists[@]}" || true
  curl -s "http://127.0.0.1:$metrics/metrics" | grep -E '^vfps_admission_refused_total' >"$work/refused.txt" || true

  local after=failed
  grpcurl -plaintext -max-msg-sz 67108864 -max-time 60 -d '{}' "127.0.0.1:$PORT" \
    vfps.api.v1.NamespaceService/GetAll >"$work/after.json" 2>&1 && after="OK, $(grep -c '"name"' "$work/after.json") namespaces"
  local alive=yes anon peak ooms
  kill -0 "$pid" 2>/dev/null || alive=no
  anon=$(cgroup_anonymous "$group")
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  peak=$(cgroup_peak "$group")
  ooms=$(cgroup_oom_kills "$group")
  python3 - "$work" "$namespaces" "$burst" "$alive" "$peak" "$anon" "${ooms:-0}" "$after" "$SMALL_OPTS" <<'PY'
import collections, glob, json, os, sys
work, namespaces, burst, alive, peak, anon, ooms, after, opts = sys.argv[1:]
def codes(name):
    r = json.load(open(os.path.join(work, name)))
    return ", ".join(f"{k} {v}" for k, v in sorted((r.get("statusCodeDistribution") or {}).items()))
def rest(label):
    seen = collections.Counter()
    for f in glob.glob(os.path.join(work, f"rest-{label}.*")):
        line = open(f).read().split()
        seen[f"HTTP {line[0]}" if line else "no answer"] += 1
    return ", ".join(f"{k} {v}" for k, v in sorted(seen.items()))
print(f"\n1 CPU, 128 MiB, JAVA_OPTS={opts}; {int(namespaces):,} namespaces\n")
print("| part | answers |")
print("|---|---|")
print(f"| 1. 20 REST GetAlls (`GET /v1/namespaces`) | {rest('alone')} |")
print(f"| 1. 20 gRPC GetAlls, at the same time | {codes('grpc-alone.json')} |")
print(f"| 2. 20 REST GetAlls again | {rest('mixed')} |")
print(f"| 2. 20 gRPC GetAlls again | {codes('grpc-mixed.json')} |")
print(f"| 2. {int(burst):,} concurrent gRPC Creates (20 connections), at the same time | {codes('burst.json')} |")
refused = [l.split() for l in open(os.path.join(work, "refused.txt"))]
print(f"| refusals counted, both rounds | {', '.join(f'{l[0][l[0].index(chr(34)) + 1:l[0].rindex(chr(34))]} {float(l[1]):.0f}' for l in refused) or 'none'} |")
print(f"| a gRPC GetAll afterwards | {after} |")
print(f"| cgroup peak (page cache included) | {int(peak) / 2**20:.1f} MiB |")
print(f"| anonymous memory at the end | {int(anon) / 2**20:.1f} MiB |")
print(f"| OOM kills | {ooms} |")
print(f"| service alive at the end | {alive} |")
PY
}

if [ "${MIX:-}" = overload ]; then
  overload
  exit 0
fi

run unlimited no "${UNLIMITED_OPTS:-}"
run small yes "$SMALL_OPTS"
if [ "${PROFILE:-no}" = yes ]; then
  OUT=${OUT:-target/profiles}
  library=$(async_profiler_library)
  limited_group=$group-profiled
  on_exit 'cgroup_remove "$limited_group"'
  cgroup_create "$limited_group" 256
  # loaded at start, commanded through jcmd: the JDK warns about agents loaded later
  run profiled yes "$SMALL_OPTS -agentpath:$library" yes
fi

python3 - "$work" "$REQUESTS" "$CONCURRENCY" "$SMALL_OPTS" "$CONNECTIONS" <<'PY'
import json, sys, os
work, requests, concurrency, opts, connections = sys.argv[1:6]
memory = {l.split()[0]: l.split()[1:] for l in open(os.path.join(work, "memory.txt"))}
rows = {}
for label in [l for l in ("unlimited", "small", "profiled") if l in memory]:
    r = json.load(open(os.path.join(work, label + ".json")))
    pct = {p["percentage"]: p["latency"] / 1e6 for p in r.get("latencyDistribution") or []}
    ok = (r.get("statusCodeDistribution") or {}).get("OK", 0)
    rows[label] = (r["rps"], pct.get(50), pct.get(99), r["count"] - ok)
print(f"\n{requests} gRPC creates of new values at concurrency {concurrency} on {connections} connection(s); small = 1 CPU, 128 MiB, JAVA_OPTS={opts}\n")
print("| run | requests/s | p50 ms | p99 ms | errors | peak memory MiB | OOM kills | survived |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for label, (rps, p50, p99, errors) in rows.items():
    alive, peak, ooms, anon = memory[label]
    if label != "unlimited":
        kind = f"cgroup peak incl. page cache; anonymous {int(anon)/2**20:.1f} at end"
    else:
        kind = "RSS at end"
    print(f"| {label} | {rps:,.0f} | {p50:.2f} | {p99:.2f} | {errors} | {int(peak)/2**20:.1f} ({kind}) | {ooms} | {alive} |")
print(f"\nsmall / unlimited throughput: {rows['small'][0] / rows['unlimited'][0]:.2f}")
print("\nCPU while ghz sent the measured creates (loadtest/cpu.py), µs per create, and the machine's cores in use:\n")
print("| run | service | of it the JIT | PostgreSQL backends | ghz | machine busy | cores in use | CPU periods throttled |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
def throttled(label):
    # the cgroup's quota periods while ghz ran: how many ended with the service held back, and for how long
    path = os.path.join(work, label + ".throttled")
    if not os.path.exists(path):
        return "-"
    p0, t0, n0, p1, t1, n1 = (int(v) for v in open(path).read().split())
    return f"{t1 - t0:,} of {p1 - p0:,} ({(n1 - n0) / 1e9:.1f} s held back)"
for label in rows:
    c = json.load(open(os.path.join(work, label + ".cpu.json")))
    calls = json.load(open(os.path.join(work, label + ".json")))["count"]
    per = lambda seconds: f"{seconds / calls * 1e6:,.0f}"
    print(f"| {label} | {per(c['service'])} | {per(c['service_jit'])} | {per(c['pg_backends'])} | {per(c['load'])} | "
          f"{per(c['machine_busy'])} | {c['machine_busy'] / c['wall']:.2f} of {c['cores']} (service {c['service'] / c['wall']:.2f}) | "
          f"{throttled(label)} |")
PY
if [ "${PROFILE:-no}" = yes ]; then
  python3 loadtest/profile.py "$OUT/small-container.collapsed" "$work/profiled.json" \
    "the small container (profiled run), the measured creates (1 ms CPU samples)"
fi
