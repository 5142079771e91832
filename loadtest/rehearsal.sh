#!/usr/bin/env bash
# A Kubernetes-style rehearsal on one machine: what the Helm chart in deploy/ does, with processes
# instead of pods and shifted ports on 127.0.0.1.
#
#   1. PostgreSQL: the machine's cluster (pg_ctlcluster), a fresh database vfps_rehearsal;
#   2. the migrations Job: `vfps migrate`, which must exit 0;
#   3. three replicas with the chart's settings (caches on, the cluster on, the small-container JVM
#      profile; the members listed in Cluster__Members where the chart resolves the headless
#      service), each, like a pod, in its own cgroup limited to 1 CPU and MEMORY_MIB (cgroup v1 or
#      v2, whichever the machine has writable; LIMITS=no runs without);
#   4. load through all three (loadtest/RehearsalClient.java: round-robin Creates, a failed call is
#      retried on the next replica, every acknowledged pair recorded) and, beside it, CYCLES
#      namespace delete/re-create cycles across the three (loadtest/CyclesClient.java: after each
#      Delete returned, every replica must answer NOT_FOUND for the namespace and its pseudonyms,
#      and after each re-create serve the new settings; anything else is a stale read);
#   5. halfway through, `kill -9` of replica 2 (KILL=no leaves it alone), which is started again
#      after RESTART_DELAY seconds, as the Deployment would replace the pod;
#   6. verification: every acknowledged (original, pseudonym) is looked up again through the
#      replicas (gRPC Get) and in the table (SQL), and pseudonyms must be unique.
#
#   loadtest/rehearsal.sh                      # 50,000 Creates at concurrency 24, 1,000 cycles
#   REQUESTS=10000 CYCLES=100 loadtest/rehearsal.sh   # shorter
#   MEMORY_MIB=256 loadtest/rehearsal.sh       # the pods' memory limit (default 128)
#
# Needs: PostgreSQL 15 installed as the Debian cluster 15/main (or ADMIN_PSQL pointing elsewhere),
# the jar (./mvnw package; bin/vfps also uses the AOT cache when the build made one), a JDK 21+
# (the client runs from source), grpcurl on PATH or in ~/go/bin. Traffic stays on 127.0.0.1; the
# run is bounded by REQUESTS and MAX_SECONDS and stops everything it started.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
SAY_STYLE=section

REQUESTS=${REQUESTS:-50000}
CYCLES=${CYCLES:-1000}
KILL=${KILL:-yes}
CONCURRENCY=${CONCURRENCY:-24}
MAX_SECONDS=${MAX_SECONDS:-300}
RESTART_DELAY=${RESTART_DELAY:-2}
MEMORY_MIB=${MEMORY_MIB:-128}
LIMITS=${LIMITS:-yes}
ADMIN_PSQL=${ADMIN_PSQL:-runuser -u postgres -- psql}
PGHOST_REHEARSAL=${PGHOST_REHEARSAL:-127.0.0.1}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"
# the chart's JVM profile (values.yaml javaOpts)
JVM_PROFILE=${JVM_PROFILE:--XX:+UseSerialGC -Xmx32m -Xmn6m -Xss256k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:+ExitOnOutOfMemoryError}
export JAVA_OPTS="$JVM_PROFILE" MALLOC_ARENA_MAX=2
if [ "$LIMITS" = yes ] && [ -z "$(cgroup_version)" ]; then
  LIMITS=no
fi
if [ "$LIMITS" != yes ]; then
  # no cgroup to read the limit from: size the JVM as the pod's limit would
  export JAVA_OPTS="$JVM_PROFILE -XX:MaxRAM=${MEMORY_MIB}m"
fi

# replica k (1..3): gRPC 38k81, HTTP 38k80, Hazelcast 38k85, event bus 38k86; metrics off
grpc_port() { echo "38${1}81"; }
members="127.0.0.1:38185,127.0.0.1:38285,127.0.0.1:38385"

work=$(mktemp -d /tmp/vfps-rehearsal.XXXXXX)
declare -A pids=()
client_pid=""
cycles_pid=""
group() { echo "vfps-rehearsal-$$-$1"; } # the cgroup of replica k
on_exit 'echo "logs: $work" >&2'
remove_groups() {
  if [ "$LIMITS" = yes ]; then
    for k in 1 2 3; do cgroup_remove "$(group "$k")"; done
  fi
}
on_exit remove_groups
stop_replicas() { # all at once, then wait for each
  for k in "${!pids[@]}"; do kill "${pids[$k]}" 2>/dev/null || true; done
  for k in "${!pids[@]}"; do wait "${pids[$k]}" 2>/dev/null || true; done
}
on_exit stop_replicas
on_exit '[ -n "$cycles_pid" ] && kill "$cycles_pid" 2>/dev/null'
on_exit '[ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null'
trap "exit 143" TERM INT

say "PostgreSQL"
if command -v pg_ctlcluster >/dev/null && [ "$ADMIN_PSQL" = "runuser -u postgres -- psql" ]; then
  pg_ctlcluster 15 main start 2>/dev/null || true
fi
wait_for 60 1 "" pg_isready -q -h "$PGHOST_REHEARSAL" || true
admin_psql -q -v ON_ERROR_STOP=1 <<'SQL'
DROP DATABASE IF EXISTS vfps_rehearsal;
SELECT 'CREATE ROLE vfps_rehearsal LOGIN PASSWORD ''vfps_rehearsal'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_rehearsal') \gexec
CREATE DATABASE vfps_rehearsal OWNER vfps_rehearsal;
SQL
# what the chart's Secret holds
export ConnectionStrings__PostgreSQL="Host=$PGHOST_REHEARSAL;Port=5432;Database=vfps_rehearsal;Username=vfps_rehearsal;Password=vfps_rehearsal;Maximum Pool Size=16;Timeout=15;Application Name=vfps"

say "migrations Job: vfps migrate"
t0=$(now_ms)
if ! bin/vfps migrate >"$work/migrate.log" 2>&1; then
  cat "$work/migrate.log" >&2
  exit 1
fi
migrate_ms=$(($(now_ms) - t0))

# the chart's environment for every pod (the caches and the cluster on)
export Pseudonymization__Caching__Namespaces__IsEnabled=true
export Pseudonymization__Caching__Pseudonyms__IsEnabled=true
export Cluster__IsEnabled=true Cluster__Name=vfps-rehearsal Cluster__Host=127.0.0.1
export Cluster__Members="$members" MetricsPort=0

if [ "$LIMITS" = yes ]; then
  for k in 1 2 3; do cgroup_create "$(group "$k")" "$MEMORY_MIB"; done
fi

start_replica() { # k
  local k=$1 enter=""
  if [ "$LIMITS" = yes ]; then
    enter=$(cgroup_enter "$(group "$k")")
  fi
  Grpc__Port=$(grpc_port "$k") Http__Port="38${k}80" Cluster__Port="38${k}85" \
    Cluster__EventBus__Port="38${k}86" sh -c "$enter exec bin/vfps" >>"$work/replica$k.log" 2>&1 &
  pids[$k]=$!
}

serving() { grpc_serving "127.0.0.1:$(grpc_port "$1")" -max-time 2; } # k

wait_serving() { # k timeout_seconds
  if ! wait_for "$2" 0.2 "${pids[$1]}" serving "$1"; then
    say "replica $1 did not come up"
    tail -20 "$work/replica$1.log" >&2
    if [ "$LIMITS" = yes ]; then
      say "OOM kills in its cgroup ($MEMORY_MIB MiB): $(cgroup_oom_kills "$(group "$1")")"
    fi
    exit 1
  fi
}

say "three replicas"
t0=$(now_ms)
for k in 1 2 3; do start_replica "$k"; done
for k in 1 2 3; do wait_serving "$k" 90; done
up_ms=$(($(now_ms) - t0))
for k in 1 2 3; do grep -m1 -o "Joined cluster.*" "$work/replica$k.log" >&2 || true; done

say "load: $REQUESTS Creates at concurrency $CONCURRENCY and $CYCLES delete/re-create cycles through all three$([ "$KILL" = yes ] && echo "; kill -9 of replica 2 halfway")"
targets="127.0.0.1:$(grpc_port 1),127.0.0.1:$(grpc_port 2),127.0.0.1:$(grpc_port 3)"
"$JAVA_HOME/bin/java" -cp target/vfps.jar loadtest/RehearsalClient.java \
  --targets "$targets" --namespace rehearsal --requests "$REQUESTS" \
  --concurrency "$CONCURRENCY" --distinct $((REQUESTS * 3 / 4)) --max-seconds "$MAX_SECONDS" \
  --progress "$work/progress" --acks "$work/acks.tsv" >"$work/client.out" 2>"$work/client.log" &
client_pid=$!
"$JAVA_HOME/bin/java" -cp target/vfps.jar loadtest/CyclesClient.java --targets "$targets" \
  --namespace cycles --cycles "$CYCLES" >"$work/cycles.out" 2>"$work/cycles.log" &
cycles_pid=$!

killed_at="-" back_ms="-" rejoined="not killed"
if [ "$KILL" = yes ]; then
  deadline=$(($(date +%s) + MAX_SECONDS))
  until [ "$(cat "$work/progress" 2>/dev/null || echo 0)" -ge $((REQUESTS / 2)) ]; do
    if ! kill -0 "$client_pid" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      say "the load ended before the halfway mark"
      cat "$work/client.log" >&2
      exit 1
    fi
    sleep 0.05
  done
  killed_at=$(cat "$work/progress")
  kill -9 "${pids[2]}"
  t_kill=$(now_ms)
  wait "${pids[2]}" 2>/dev/null || true
  say "killed replica 2 after $killed_at acknowledgements; restart in ${RESTART_DELAY}s"
  sleep "$RESTART_DELAY"
  echo "--- restarted" >>"$work/replica2.log"
  start_replica 2
  wait_serving 2 90
  back_ms=$(($(now_ms) - t_kill))
  say "replica 2 serving again $back_ms ms after the kill"
  rejoined=$(sed -n '/--- restarted/,$p' "$work/replica2.log" | grep -m1 -o "Joined cluster.*" || echo "no join line")
fi

client_status=0
wait "$client_pid" || client_status=$?
client_pid=""
grep '=' "$work/client.out" | grep -v ' ' >&2 || true
cycles_status=0
wait "$cycles_pid" || cycles_status=$?
cycles_pid=""
cat "$work/cycles.out" >&2

say "verification in SQL"
export PGPASSWORD=vfps_rehearsal
sql() { psql -h "$PGHOST_REHEARSAL" -U vfps_rehearsal -d vfps_rehearsal -q -t -A -v ON_ERROR_STOP=1; }
read -r missing_sql duplicate_pseudonyms rows unacknowledged_rows < <(sql <<SQL | tr '|' ' '
CREATE TEMP TABLE acks (original_value text, pseudonym_value text);
\copy acks FROM '$work/acks.tsv'
SELECT
  (SELECT count(*) FROM acks a LEFT JOIN pseudonyms p
     ON p.namespace_name = 'rehearsal' AND p.original_value = a.original_value
   WHERE p.pseudonym_value IS DISTINCT FROM a.pseudonym_value),
  (SELECT count(*) FROM (SELECT pseudonym_value FROM pseudonyms WHERE namespace_name = 'rehearsal'
     GROUP BY pseudonym_value HAVING count(*) > 1) d),
  (SELECT count(*) FROM pseudonyms WHERE namespace_name = 'rehearsal'),
  (SELECT count(*) FROM pseudonyms p WHERE namespace_name = 'rehearsal'
     AND NOT EXISTS (SELECT FROM acks a WHERE a.original_value = p.original_value));
SQL
)

oom_kills=0
memory_figure() { # k: the cgroup's peak and OOM kills, else the process's peak RSS
  local k=$1
  if [ "$LIMITS" = yes ]; then
    echo "$(($(cgroup_peak "$(group "$k")") / 1048576)) MiB peak, $(($(cgroup_anonymous "$(group "$k")") / 1048576)) MiB anonymous at the end, $(cgroup_oom_kills "$(group "$k")") OOM kills"
  else
    echo "$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/${pids[$k]}/status") MiB RSS"
  fi
}
memory_peaks="$(memory_figure 1) / $(memory_figure 2) / $(memory_figure 3)"
if [ "$LIMITS" = yes ]; then
  for k in 1 2 3; do oom_kills=$((oom_kills + $(cgroup_oom_kills "$(group "$k")"))); done
fi
alive=0
for k in 1 2 3; do kill -0 "${pids[$k]}" 2>/dev/null && alive=$((alive + 1)); done

value() { grep "^$1=" "$work/client.out" | cut -d= -f2-; }
cvalue() { grep "^$1=" "$work/cycles.out" | cut -d= -f2-; }
cat <<EOF

| figure | value |
|---|---|
| migrate (the Job), exec to exit | $migrate_ms ms |
| three replicas started and serving | $up_ms ms |
| Creates sent / acknowledged | $(value sent) / $(value acknowledged) in $(value seconds) s ($(value creates_per_second) per second, p50 $(value latency_p50_ms) ms, p99 $(value latency_p99_ms) ms, max $(value latency_max_ms) ms) |
| acknowledged per replica (1 / 2 / 3) | $(value ok_by_replica) |
| replica 2 killed (kill -9) after / serving again after the kill | $killed_at acknowledgements / $back_ms ms ($rejoined) |
| failed attempts (retried on the next replica) | $(value failed_attempts) $(value failed_attempts_by_kind) |
| requests that failed for good | $(value failed_requests) |
| inconsistent pseudonyms (one original, two answers) | $(value inconsistent_pseudonyms) |
| acknowledged pairs verified by Get / lost | $(value verified_by_get) / $(value lost_by_get) |
| acknowledged pairs missing or different in SQL | $missing_sql |
| pseudonym values shared by two originals | $duplicate_pseudonyms |
| rows / committed but never acknowledged | $rows / $unacknowledged_rows |
| namespace delete/re-create cycles (failed: a replica was away) | $(cvalue cycles) ($(cvalue failed_cycles)) in $(cvalue seconds) s |
| reads after a Delete returned / stale (still finding the namespace or its pseudonyms, or old settings after a re-create) | $(cvalue reads_after_delete) / $(cvalue stale_reads) |
| cycle calls without a reply (replica away, timeout) | $(cvalue answers_without_a_reply) |
| replicas alive at the end | $alive of 3 |
| peak memory per replica (1 / 2 / 3)$([ "$LIMITS" = yes ] && echo ", limit $MEMORY_MIB MiB and 1 CPU each") | $memory_peaks |
EOF

if [ "$client_status" -ne 0 ] || [ "$cycles_status" -ne 0 ] || [ "$missing_sql" -ne 0 ] ||
  [ "$duplicate_pseudonyms" -ne 0 ] || [ "$alive" -ne 3 ] || [ "$oom_kills" -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "passed: no lost acknowledgement, no stale read, no OOM kill"
