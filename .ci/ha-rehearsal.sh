#!/usr/bin/env bash
# High availability, rehearsed on one machine with real parts (docs/deployment/high-availability.md):
#
#   1. the database: one etcd member; three PostgreSQL 15 instances under Patroni with synchronous
#      replication (synchronous_mode: true, so a promotion cannot lose an acknowledged commit);
#      HAProxy in front with a primary-only backend checked through Patroni's REST /primary, cutting
#      the sessions of a server that stops being the primary (as a CloudNativePG -rw Service, whose
#      old primary is shut down on switchover and failover);
#   2. between the replicas and HAProxy a relay that can be partitioned (.ci/PartitionProxy.java:
#      it stops forwarding, in both directions, without closing or resetting anything);
#   3. three clustered vfps replicas from target/vfps.jar with the chart's settings for this topology
#      (deploy/ci/ha-values.yaml: both caches and the cluster on, its JAVA_OPTS, each in a cgroup of
#      1 CPU and MEMORY_MIB as a pod);
#   4. an open-model load (.ci/HaRehearsalClient.java): RATE Creates per second of fresh values
#      on a fixed schedule that never waits for replies, a DEADLINE_MS deadline per call, retries on
#      UNAVAILABLE only, every acknowledged pair in a ledger; the calls go round robin to the
#      replicas that are ready, as through the chart's <release>-headless Service, which lists ready
#      pods only: each replica's /readyz is polled every 250 ms, as endpoints follow readiness
#      probes, and a replica gets new calls only while it answers 200 (when none does, all get
#      calls, as a gRPC client keeps its addresses when the name resolves to none);
#   5. under that load, in sequence: baseline; kill -9 of a replica and its restart; a planned Patroni
#      switchover; kill -9 of the PostgreSQL primary (the Patroni node and its postgres processes, as
#      a pod dies; the node comes back after PG_RESTART_DELAY as the pod would); a 20 s partition
#      between the replicas and the database; a rolling restart of the replicas with SIGTERM;
#   6. the verdict, after SETTLE_SECONDS: the whole ledger replayed (P2: a re-Create answers the same
#      pseudonym; P3: a Get answers the original) and checked in SQL, duplicate pseudonyms counted;
#      a table per scenario, and as the last two lines
#        P1 max outage <s> s, unavailable <s> s; P2 <n>; P3 <n>
#        partition: longest call <s> s, first success <s> s after it healed
#      The exit status is 1 when a budget is missed. Outside the partition: P1 longest outage
#      <= MAX_OUTAGE_SECONDS (10) and failure-equivalent seconds <= MAX_UNAVAILABLE_SECONDS (30).
#      The partition: no call under way during it outlives its deadline by more than
#      MAX_OVERRUN_SECONDS (1), and the first call offered after it healed is acknowledged within
#      MAX_RECOVERY_SECONDS (5). Over the whole run: P2 = P3 = 0, no duplicate pseudonym, no
#      acknowledged pair missing in the table, no replica that died on its own.
#
# P1's two figures (the upstream chaos test's definitions): a call belongs to the second in which it
# was scheduled to be sent, and succeeds when it is answered OK within its deadline (retries
# included). The longest outage is the longest run of consecutive seconds in which calls were
# offered and none succeeded; the failure-equivalent (unavailable) seconds are the failed and shed
# calls divided by the offered rate, the time the whole offered load would have been failing. The
# calls offered while the partition holds are left out of both: no Create can commit then.
#
#   .ci/ha-rehearsal.sh                          # every scenario, 8 to 24 minutes
#   HA_PROFILE=short .ci/ha-rehearsal.sh         # baseline, replica kill, primary kill: ~3 minutes
#
# Needs root (apt-get, cgroups, running PostgreSQL as the postgres user), Debian's etcd-server,
# patroni and haproxy (installed when missing), PostgreSQL 15 binaries in /usr/lib/postgresql/15,
# the jar (./mvnw -B -ntp package -DskipTests), a JDK 21+ (JAVA_HOME), curl and jq. Everything
# listens on 127.0.0.1, on PORT_BASE (25400) to PORT_BASE+99, never on the machine's own
# PostgreSQL; everything started is stopped on exit, Ctrl-C included (KEEP_WORK=yes keeps the data
# directories, the logs are always kept).
set -Eeuo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

HA_PROFILE=${HA_PROFILE:-full}
RATE=${RATE:-200}
DEADLINE_MS=${DEADLINE_MS:-5000}
PORT_BASE=${PORT_BASE:-25400}
MEMORY_MIB=${MEMORY_MIB:-256}
LIMITS=${LIMITS:-yes}
RESTART_DELAY=${RESTART_DELAY:-2}
PG_RESTART_DELAY=${PG_RESTART_DELAY:-5}
PARTITION_SECONDS=${PARTITION_SECONDS:-20}
SETTLE_SECONDS=${SETTLE_SECONDS:-10}
MAX_OUTAGE_SECONDS=${MAX_OUTAGE_SECONDS:-10}
MAX_UNAVAILABLE_SECONDS=${MAX_UNAVAILABLE_SECONDS:-30}
MAX_OVERRUN_SECONDS=${MAX_OVERRUN_SECONDS:-1}
MAX_RECOVERY_SECONDS=${MAX_RECOVERY_SECONDS:-5}
KEEP_WORK=${KEEP_WORK:-no}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
java="$JAVA_HOME/bin/java"
export PATH="$HOME/go/bin:$PATH" # grpcurl, when there, for the probes of the snapshots
# the javaOpts of deploy/ci/ha-values.yaml and the chart's MALLOC_ARENA_MAX; the chart's default
# -Xmx32m is too small for a clustered replica: in the partition all three ran out of heap
export JAVA_OPTS=${JAVA_OPTS:--XX:+UseSerialGC -Xmx96m -Xss256k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=8m -XX:+ExitOnOutOfMemoryError}
export MALLOC_ARENA_MAX=2

# the shortest each scenario runs, its recovery included (seconds)
declare -A least=([warm-up]=10 [baseline]=30 [replica-kill]=30 [switchover]=35 [primary-kill]=45 [partition]=45 [rolling-restart]=20)
case "$HA_PROFILE" in
  full) scenarios=(warm-up baseline replica-kill switchover primary-kill partition rolling-restart) ;;
  short)
    scenarios=(warm-up baseline replica-kill primary-kill)
    least=([warm-up]=10 [baseline]=15 [replica-kill]=25 [primary-kill]=40)
    ;;
  *) echo "HA_PROFILE must be full or short" >&2 && exit 2 ;;
esac
# HA_SCENARIOS="warm-up switchover switchover" runs those instead (for a closer look at one)
if [ -n "${HA_SCENARIOS:-}" ]; then
  read -r -a scenarios <<<"$HA_SCENARIOS"
  for scenario in "${scenarios[@]}"; do
    [ -n "${least[$scenario]:-}" ] || { echo "unknown scenario $scenario" >&2 && exit 2; }
  done
fi
# what HAProxy does to the sessions of a server that stops being the primary: shutdown-sessions
# cuts them (as CloudNativePG's old primary shuts down); HAPROXY_ON_MARKED_DOWN=keep leaves them,
# as a kube-proxy Service leaves established connections to an endpoint it removed
case "${HAPROXY_ON_MARKED_DOWN:-cut}" in
  cut) on_marked_down="on-marked-down shutdown-sessions" ;;
  keep) on_marked_down="" ;;
  *) echo "HAPROXY_ON_MARKED_DOWN must be cut or keep" >&2 && exit 2 ;;
esac

# ports: HAProxy (primary) +0, its stats +1, the partition relay +2, etcd +5 (peers +6),
# PostgreSQL k +10+k, Patroni REST k +20+k, vfps k: HTTP +40+k, gRPC +50+k, Hazelcast +60+k,
# event bus +70+k, metrics +80+k
rw_port=$PORT_BASE stats_port=$((PORT_BASE + 1)) relay_port=$((PORT_BASE + 2))
etcd_port=$((PORT_BASE + 5)) etcd_peer_port=$((PORT_BASE + 6))
pg_port() { echo $((PORT_BASE + 10 + $1)); }
rest_port() { echo $((PORT_BASE + 20 + $1)); }
http_port() { echo $((PORT_BASE + 40 + $1)); }
grpc_port() { echo $((PORT_BASE + 50 + $1)); }

SAY_START_MS=$(now_ms) SAY_STYLE=timed
# progress goes to the script's own stderr (fd 3), also from within redirected commands
exec 3>&2
SAY_FD=3
note() { say "$*" && printf '%s\n' "- $*" >>"$work/notes.md"; }

# ------------------------------------------------------------------ what is needed, what is free
if [ "$(id -u)" -ne 0 ]; then
  echo "run as root: it installs packages, makes cgroups and runs PostgreSQL as postgres" >&2
  exit 2
fi
missing=()
for tool in etcd patroni patronictl haproxy; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing etcd-server patroni haproxy (missing: ${missing[*]})"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server patroni haproxy >/dev/null
fi
for tool in curl jq "$PG_BIN/postgres" "$java" target/vfps.jar; do
  command -v "$tool" >/dev/null || [ -e "$tool" ] || { echo "missing: $tool" >&2 && exit 2; }
done
busy=$(ss -Htln | awk '{print $4}' | sed 's/.*://' |
  awk -v lo="$PORT_BASE" -v hi=$((PORT_BASE + 99)) '$1 >= lo && $1 <= hi' | sort -un | tr '\n' ' ')
if [ -n "$busy" ]; then
  echo "ports $PORT_BASE-$((PORT_BASE + 99)) must be free; in use: $busy(set PORT_BASE)" >&2
  exit 2
fi
if [ "$LIMITS" = yes ] && [ -z "$(cgroup_version)" ]; then
  LIMITS=no
fi
if [ "$LIMITS" != yes ]; then
  export JAVA_OPTS="$JAVA_OPTS -XX:MaxRAM=${MEMORY_MIB}m"
fi

# ------------------------------------------------------------------ cleanup, whatever happens
work=$(mktemp -d /tmp/vfps-ha.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/logs"
: >"$work/notes.md"
declare -A pids=()
group() { echo "vfps-ha-$$-$1"; }

tree() { # pid: the pid and all its descendants
  local child
  echo "$1"
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do tree "$child"; done
}

postmaster() { postmaster_pid "$work/pg$1/data"; } # k: the pid of node k's postmaster, if it runs

stop() { # name signal grace_seconds: signal the process, kill -9 its tree after the grace
  local name=$1 pid=${pids[$1]:-} all
  [ -n "$pid" ] || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill "-$2" "$pid" 2>/dev/null || true
    for _ in $(seq 1 $(($3 * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      all=$(tree "$pid" | tr '\n' ' ')
      # shellcheck disable=SC2086
      kill -9 $all 2>/dev/null || true
    fi
  fi
  wait "$pid" 2>/dev/null || true
  unset "pids[$name]"
}

cleanup() {
  touch "$work/stop" 2>/dev/null
  stop client TERM 10
  stop verify TERM 2
  stop sampler TERM 2
  for k in 1 2 3; do stop "vfps$k" TERM 10; done
  stop relay TERM 2
  stop haproxy TERM 5
  for k in 1 2 3; do [ -n "${pids[patroni$k]:-}" ] && kill -TERM "${pids[patroni$k]}" 2>/dev/null; done
  for k in 1 2 3; do stop "patroni$k" TERM 30; done
  stop etcd TERM 5
  # a postmaster that outlived its Patroni (a failed run) is stopped too, before its files go
  for k in 1 2 3; do
    pm=$(postmaster "$k")
    [ -n "$pm" ] && kill -INT "$pm" 2>/dev/null
    for _ in $(seq 1 100); do [ -z "$(postmaster "$k")" ] && break; sleep 0.1; done
    pm=$(postmaster "$k")
    # shellcheck disable=SC2046
    [ -n "$pm" ] && kill -9 $(tree "$pm") 2>/dev/null
  done
  for k in 1 2 3; do
    cgroup_remove "$(group "$k")"
  done
  if [ "$KEEP_WORK" != yes ]; then
    rm -rf "$work"/pg[123] "$work/etcd" "$work/ledger.tsv"
  fi
  echo "logs: $work/logs" >&3
}
on_exit cleanup
# say where an unexpected failure ended the run (not for commands in command substitutions)
trap 'rc=$?; [ "$BASHPID" = "$$" ] && say "failed (status $rc) at line $LINENO: $BASH_COMMAND"' ERR
trap 'exit 130' INT TERM

# ------------------------------------------------------------------ the database cluster
say "compiling the load generator and the relay"
"$JAVA_HOME/bin/javac" -nowarn -d "$work/classes" -cp target/vfps.jar .ci/HaRehearsalClient.java \
  .ci/PartitionProxy.java 2>"$work/logs/javac.log" || { cat "$work/logs/javac.log" >&2 && exit 1; }

say "etcd on $etcd_port"
install -d -o postgres -m 700 "$work/etcd"
"${AS_POSTGRES[@]}" etcd --name ha --data-dir "$work/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster "ha=http://127.0.0.1:$etcd_peer_port" --initial-cluster-state new \
  --initial-cluster-token "vfps-ha-$$" >"$work/logs/etcd.log" 2>&1 &
pids[etcd]=$!

patroni_config() { # k
  local k=$1
  cat <<YAML
scope: vfps-ha
namespace: /vfps-ha-$$/
name: pg$k
restapi:
  listen: 127.0.0.1:$(rest_port "$k")
  connect_address: 127.0.0.1:$(rest_port "$k")
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    # failover within about 10 s of a primary's death (loop_wait + 2 * retry_timeout <= ttl)
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_log_hints: "on"
        max_connections: 200
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:$(pg_port "$k")
  connect_address: 127.0.0.1:$(pg_port "$k")
  data_dir: $work/pg$k/data
  bin_dir: $PG_BIN
  pgpass: $work/pg$k/pgpass
  authentication:
    superuser: {username: postgres, password: ha-postgres}
    replication: {username: replicator, password: ha-replicator}
    rewind: {username: rewinder, password: ha-rewinder}
  parameters:
    unix_socket_directories: $work/pg$k
    shared_buffers: 32MB
YAML
}

start_patroni() { # k
  local k=$1
  "${AS_POSTGRES[@]}" env HOME="$work/pg$k" patroni "$work/pg$k/patroni.yml" >>"$work/logs/patroni$k.log" 2>&1 &
  pids[patroni$k]=$!
}

rest() { # k path: Patroni's REST API of node k
  curl -s --max-time 1 "http://127.0.0.1:$(rest_port "$1")$2"
}
members() { # name role state lag, one line per member, from any node that answers (in 5 s)
  local k out
  for _ in 1 2 3 4 5; do
    for k in 1 2 3; do
      out=$(rest "$k" /cluster 2>/dev/null) || continue
      [ -n "$out" ] || continue
      jq -r '.members[] | "\(.name) \(.role) \(.state) \(.lag // 0)"' <<<"$out" && return 0
    done
    sleep 0.5
  done
  return 1
}
leader() { members 2>/dev/null | awk '$2 == "leader" && $3 == "running" {print $1}' || true; }
healthy() { # a running leader, a streaming sync standby and a third streaming member
  local m
  m=$(members 2>/dev/null) || return 1
  [ "$(awk '$2 == "leader" && $3 == "running"' <<<"$m" | wc -l)" -eq 1 ] &&
    [ "$(awk '$2 == "sync_standby" && ($3 == "streaming" || $3 == "running")' <<<"$m" | wc -l)" -eq 1 ] &&
    [ "$(awk '$2 == "replica" && ($3 == "streaming" || $3 == "running")' <<<"$m" | wc -l)" -eq 1 ] &&
    psql_rw -c 'SELECT 1' >/dev/null 2>&1
}
wait_healthy() { # timeout_seconds
  local deadline=$(($(date +%s) + $1))
  until healthy; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "the database cluster did not become healthy in $1 s:"
      members >&2 || true
      exit 1
    fi
    sleep 0.5
  done
}
psql_rw() { # through HAProxy, as the superuser
  PGPASSWORD=ha-postgres PGCONNECT_TIMEOUT=3 psql -h 127.0.0.1 -p "$rw_port" -U postgres -d "${PGDB:-postgres}" \
    -q -t -A -v ON_ERROR_STOP=1 "$@"
}

for k in 1 2 3; do
  install -d -o postgres -m 700 "$work/pg$k"
  patroni_config "$k" >"$work/pg$k/patroni.yml"
  chown postgres "$work/pg$k/patroni.yml"
done
etcd_healthy() { curl -s --max-time 1 "http://127.0.0.1:$etcd_port/health" | grep -q true; }
wait_for 600 0.2 "${pids[etcd]}" etcd_healthy || { tail "$work/logs/etcd.log" >&2 && exit 1; }

say "HAProxy on $rw_port (primary only, checked through Patroni's /primary)"
{
  cat <<CFG
global
  maxconn 1000
  log stdout format raw local0 info
defaults
  mode tcp
  log global
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout check 1s
listen primary
  bind 127.0.0.1:$rw_port
  option httpchk OPTIONS /primary
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 $on_marked_down
CFG
  for k in 1 2 3; do echo "  server pg$k 127.0.0.1:$(pg_port "$k") check port $(rest_port "$k")"; done
  cat <<CFG
listen stats
  mode http
  bind 127.0.0.1:$stats_port
  stats enable
  stats uri /
CFG
} >"$work/haproxy.cfg"
"${AS_POSTGRES[@]}" haproxy -db -f "$work/haproxy.cfg" >"$work/logs/haproxy.log" 2>&1 &
pids[haproxy]=$!

say "three PostgreSQL 15 instances under Patroni (synchronous_mode), ports $(pg_port 1)-$(pg_port 3)"
t0=$(now_ms)
start_patroni 1
has_leader() { [ -n "$(leader)" ]; }
wait_for 600 0.5 "${pids[patroni1]}" has_leader || { tail -30 "$work/logs/patroni1.log" >&2 && exit 1; }
start_patroni 2
start_patroni 3
wait_healthy 180
note "database cluster: leader $(leader), two streaming standbys, $(($(now_ms) - t0)) ms"

psql_rw <<'SQL'
CREATE ROLE vfps LOGIN PASSWORD 'vfps';
CREATE DATABASE vfps OWNER vfps;
SQL

say "the partition relay on $relay_port, in front of HAProxy"
"$java" -cp "$work/classes" PartitionProxy --listen "$relay_port" --upstream "$rw_port" \
  --partition "$work/partition" >"$work/logs/relay.log" 2>&1 &
pids[relay]=$!
wait_for 600 0.2 "${pids[relay]}" port_open 127.0.0.1 "$relay_port" || { cat "$work/logs/relay.log" >&2 && exit 1; }

# ------------------------------------------------------------------ three replicas
# what the chart's Secret would hold: the replicas reach the primary through the relay and HAProxy
export ConnectionStrings__PostgreSQL="Host=127.0.0.1;Port=$relay_port;Database=vfps;Username=vfps;Password=vfps;Maximum Pool Size=16;Timeout=15;Application Name=vfps"
say "migrations Job: vfps migrate"
bin/vfps migrate >"$work/logs/migrate.log" 2>&1 || { cat "$work/logs/migrate.log" >&2 && exit 1; }

export Pseudonymization__Caching__Namespaces__IsEnabled=true
export Pseudonymization__Caching__Pseudonyms__IsEnabled=true
export Cluster__IsEnabled=true Cluster__Name=vfps-ha-$$ Cluster__Host=127.0.0.1
export Cluster__Members="127.0.0.1:$((PORT_BASE + 61)),127.0.0.1:$((PORT_BASE + 62)),127.0.0.1:$((PORT_BASE + 63))"

if [ "$LIMITS" = yes ]; then
  for k in 1 2 3; do cgroup_create "$(group "$k")" "$MEMORY_MIB"; done
fi

start_replica() { # k
  local k=$1 enter=""
  if [ "$LIMITS" = yes ]; then enter=$(cgroup_enter "$(group "$k")"); fi
  echo "--- started at $(date +%T.%3N)" >>"$work/logs/vfps$k.log"
  Http__Port=$(http_port "$k") Grpc__Port=$(grpc_port "$k") MetricsPort=$((PORT_BASE + 80 + k)) \
    Cluster__Port=$((PORT_BASE + 60 + k)) Cluster__EventBus__Port=$((PORT_BASE + 70 + k)) \
    sh -c "$enter exec bin/vfps" >>"$work/logs/vfps$k.log" 2>&1 &
  pids[vfps$k]=$!
}
ready() { # k: what /readyz answers (000 when nothing does)
  curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$(http_port "$1")/readyz" || true
}
crashes=0
revive() { # k: a replica that died on its own is started again, as the Deployment would
  local k=$1 status=0
  kill -0 "${pids[vfps$k]}" 2>/dev/null && return 0
  wait "${pids[vfps$k]}" 2>/dev/null || status=$?
  crashes=$((crashes + 1))
  note "${phase_name:-start}: replica $k died on its own (exit status $status; last words: $(grep -E 'Terminating|OutOfMemory|Exception|ERROR' "$work/logs/vfps$k.log" | tail -1 | cut -c1-160)); started again after ${RESTART_DELAY} s"
  sleep "$RESTART_DELAY"
  start_replica "$k"
}
wait_serving() { # k timeout_seconds [fatal]: 1 when not ready in time (the end, when fatal)
  local deadline=$(($(date +%s) + $2))
  until [ "$(ready "$1")" = 200 ]; do
    revive "$1"
    if [ "$(date +%s)" -ge "$deadline" ]; then
      if [ "${3:-}" = fatal ]; then
        say "replica $1 did not become ready in $2 s"
        tail -20 "$work/logs/vfps$1.log" >&2
        exit 1
      fi
      note "${phase_name:-start}: replica $1 not ready $2 s after it was started; going on without it"
      return 1
    fi
    sleep 0.2
  done
}

say "three clustered replicas, gRPC $(grpc_port 1)-$(grpc_port 3)"
t0=$(now_ms)
for k in 1 2 3; do start_replica "$k"; done
for k in 1 2 3; do wait_serving "$k" 120 fatal; done
note "three replicas ready in $(($(now_ms) - t0)) ms$([ "$LIMITS" = yes ] && echo ", each limited to 1 CPU and $MEMORY_MIB MiB")"

# ------------------------------------------------------------------ the load and the scenarios
targets="127.0.0.1:$(grpc_port 1),127.0.0.1:$(grpc_port 2),127.0.0.1:$(grpc_port 3)"
readiness="127.0.0.1:$(http_port 1),127.0.0.1:$(http_port 2),127.0.0.1:$(http_port 3)"
client() { "$java" -cp "$work/classes:target/vfps.jar" HaRehearsalClient "$@"; }
: >"$work/phases.tsv"
: >"$work/windows.tsv" # when each partition began and healed
phase_start=0 phase_name=""
phase() { # name
  phase_start=$(now_ms) phase_name=$1
  printf '%s\t%s\n' "$1" "$phase_start" >>"$work/phases.tsv"
  say "scenario: $1"
}
hold() { # name: until the scenario has run its least seconds, then a snapshot for the evidence
  local until=$((phase_start + ${least[$1]} * 1000))
  while [ "$(now_ms)" -lt "$until" ]; do
    kill -0 "${pids[client]}" 2>/dev/null || { say "the load stopped" && tail "$work/logs/client.log" >&2 && exit 1; }
    for k in 1 2 3; do revive "$k"; done
    sleep 0.2
  done
  snapshot "$1"
}
snapshot() { # name: the replicas' connections to the database and their threads
  (
    set +e
    echo "== $(date +%T.%3N) connections to the relay (port $relay_port), state Recv-Q Send-Q"
    ss -tnp state all "( dport = :$relay_port )" 2>/dev/null
    for k in 1 2 3; do
      echo "== replica $k (pid ${pids[vfps$k]:-none}): /readyz $(ready "$k"); a Create from a new client:"
      if command -v grpcurl >/dev/null; then
        t=$(now_ms)
        grpcurl -plaintext -max-time 5 -d "{\"namespace\": \"ha\", \"originalValue\": \"probe-$1-$k\"}" \
          "127.0.0.1:$(grpc_port "$k")" vfps.api.v1.PseudonymService/Create 2>&1 | tr '\n' ' ' | cut -c1-200
        echo " ($(($(now_ms) - t)) ms)"
      fi
      [ -n "${pids[vfps$k]:-}" ] && timeout 10 "$JAVA_HOME/bin/jcmd" "${pids[vfps$k]}" Thread.print 2>&1 |
        grep -A12 -E '^"vert.x-eventloop'
    done
  ) >"$work/logs/snapshot-$1.txt" 2>&1 || true
}
histograms() { # name: the largest classes on each replica's heap, in the middle of an outage
  local k
  for k in 1 2 3; do
    echo "== replica $k at $(date +%T.%3N)"
    timeout 10 "$JAVA_HOME/bin/jcmd" "${pids[vfps$k]}" GC.class_histogram 2>&1 | head -16
  done >"$work/logs/histograms-$1.txt" 2>&1 || true
}
all_serving() { for k in 1 2 3; do wait_serving "$k" 120 || true; done; }
new_leader() { # old timeout_seconds: prints the new leader once there is one
  local deadline=$(($(date +%s) + $2)) new
  until new=$(leader) && [ -n "$new" ] && [ "$new" != "$1" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "no new leader after $2 s" && members >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "$new"
}

# the replicas' first seconds under load (class loading, the JIT), apart from the baseline
scenario_warm-up() { hold warm-up; }

scenario_baseline() { hold baseline; }

scenario_replica-kill() {
  local t
  kill -9 "${pids[vfps2]}"
  t=$(now_ms)
  wait "${pids[vfps2]}" 2>/dev/null || true
  sleep "$RESTART_DELAY"
  start_replica 2
  if wait_serving 2 120; then
    note "replica-kill: replica 2 killed (kill -9), restarted after ${RESTART_DELAY} s, ready again $(($(now_ms) - t)) ms after the kill"
  fi
  hold replica-kill
}

scenario_switchover() {
  local old new candidate t
  wait_healthy 60
  old=$(leader)
  candidate=$(members | awk '$2 == "sync_standby" {print $1}') || true
  [ -n "$candidate" ] || { say "no synchronous standby to switch over to" && members >&3; exit 1; }
  t=$(now_ms)
  if ! patronictl -c "$work/pg1/patroni.yml" switchover --leader "$old" --candidate "$candidate" \
    --force >>"$work/logs/patronictl.log" 2>&1; then
    say "patronictl switchover failed:" && tail -5 "$work/logs/patronictl.log" >&2
    exit 1
  fi
  new=$(new_leader "$old" 60)
  note "switchover: $old -> $new, new leader running $(($(now_ms) - t)) ms after patronictl switchover"
  wait_healthy 120
  note "switchover: cluster healthy again (sync standby streaming) after $(($(now_ms) - t)) ms"
  hold switchover
}

scenario_primary-kill() {
  local old k new t all
  wait_healthy 60
  old=$(leader)
  k=${old#pg}
  # the pod: Patroni, the postmaster and every postgres process under it
  all="${pids[patroni$k]} $(tree "$(postmaster "$k")" | tr '\n' ' ')"
  t=$(now_ms)
  # shellcheck disable=SC2086
  kill -9 $all
  wait "${pids[patroni$k]}" 2>/dev/null || true
  unset "pids[patroni$k]"
  new=$(new_leader "$old" 90)
  histograms primary-kill
  note "primary-kill: $old killed (kill -9 of Patroni and $(($(wc -w <<<"$all") - 1)) postgres processes), $new leader after $(($(now_ms) - t)) ms"
  while [ "$(now_ms)" -lt $((t + PG_RESTART_DELAY * 1000)) ]; do sleep 0.2; done
  start_patroni "$k"
  wait_healthy 180
  note "primary-kill: $old back as a standby (restarted after ${PG_RESTART_DELAY} s), cluster healthy after $(($(now_ms) - t)) ms"
  hold primary-kill
}

scenario_partition() {
  local t
  touch "$work/partition"
  t=$(now_ms)
  sleep $((PARTITION_SECONDS / 2))
  histograms partition
  while [ "$(now_ms)" -lt $((t + PARTITION_SECONDS * 1000)) ]; do sleep 0.1; done
  rm -f "$work/partition"
  printf 'partition\t%s\t%s\n' "$t" "$(now_ms)" >>"$work/windows.tsv"
  note "partition: the relay between the replicas and HAProxy forwarded nothing for ${PARTITION_SECONDS} s"
  all_serving
  hold partition
}

scenario_rolling-restart() {
  local k t code last seen exit_code
  for k in 1 2 3; do
    t=$(now_ms)
    kill -TERM "${pids[vfps$k]}"
    last="" seen=""
    while kill -0 "${pids[vfps$k]}" 2>/dev/null; do
      code=$(ready "$k")
      if [ "$code" != "$last" ]; then
        seen="$seen /readyz $code at $(($(now_ms) - t)) ms;"
        last=$code
      fi
      if [ "$(now_ms)" -gt $((t + 30000)) ]; then
        seen="$seen SIGKILL after the 30 s grace period;"
        kill -9 "${pids[vfps$k]}"
      fi
      sleep 0.1
    done
    exit_code=0
    wait "${pids[vfps$k]}" 2>/dev/null || exit_code=$?
    note "rolling-restart: replica $k SIGTERM:$seen exited (status $exit_code) after $(($(now_ms) - t)) ms"
    start_replica "$k"
    wait_serving "$k" 120 || true
  done
  hold rolling-restart
}

# once a second, what each replica's pool and gRPC calls are doing
sample_metrics() {
  local k ts
  until [ -f "$work/stop" ]; do
    ts=$(date +%T.%1N)
    for k in 1 2 3; do
      curl -s --max-time 0.5 "http://127.0.0.1:$((PORT_BASE + 80 + k))/metrics" 2>/dev/null |
        grep -E '^(vertx_pool_(queue_pending|in_use)\{pool_name="vfps"|vertx_sql_processing_pending|grpc_server_(started|handled)_total\{.*PseudonymService)' |
        sed "s/^/$ts vfps$k /" || true
    done
    sleep 1
  done >>"$work/logs/metrics.log"
}
sample_metrics &
pids[sampler]=$!

say "load: $RATE Creates/s, ${DEADLINE_MS} ms deadline; scenarios: ${scenarios[*]}"
"$java" -cp "$work/classes:target/vfps.jar" HaRehearsalClient load --targets "$targets" --readiness "$readiness" --namespace ha --rate "$RATE" --deadline-ms "$DEADLINE_MS" \
  --ledger "$work/ledger.tsv" --calls "$work/logs/calls.tsv" --stop "$work/stop" \
  >"$work/logs/client.out" 2>"$work/logs/client.log" &
pids[client]=$!
wait_for 600 0.1 "${pids[client]}" log_has "$work/logs/client.out" '^load started' ||
  { cat "$work/logs/client.log" >&2 && exit 1; }
for scenario in "${scenarios[@]}"; do
  phase "$scenario"
  "scenario_$scenario"
done
touch "$work/stop"
wait "${pids[client]}" || { cat "$work/logs/client.log" >&2 && exit 1; }
unset "pids[client]"
load_end=$(now_ms)
note "load generator: new connections after one stopped granting streams (replica 1 / 2 / 3): $(sed -n 's/^reconnects=//p' "$work/logs/client.out")"

# ------------------------------------------------------------------ the verdict
say "settling for $SETTLE_SECONDS s"
sleep "$SETTLE_SECONDS"
all_serving
wait_healthy 120
say "replaying the ledger: $(wc -l <"$work/ledger.tsv") pairs (re-Create, Get)"
t0=$(now_ms)
phase_name=verification
"$java" -cp "$work/classes:target/vfps.jar" HaRehearsalClient verify --targets "$targets" \
  --namespace ha --ledger "$work/ledger.tsv" >"$work/logs/verify.out" 2>"$work/logs/verify.log" &
pids[verify]=$!
# in the background, so that a replica that dies meanwhile is started again, and Ctrl-C is heard
while kill -0 "${pids[verify]}" 2>/dev/null; do
  for k in 1 2 3; do revive "$k"; done
  sleep 1
done
wait "${pids[verify]}" || { cat "$work/logs/verify.log" >&2 && exit 1; }
unset "pids[verify]"
note "verification: $(grep -m1 '^pairs=' "$work/logs/verify.out" | cut -d= -f2) pairs in $(($(now_ms) - t0)) ms"

say "checking the database"
chmod 644 "$work/ledger.tsv"
read -r lost duplicates rows unacknowledged < <(PGDB=vfps psql_rw <<SQL | tr '|' ' '
CREATE TEMP TABLE ledger (original_value text, pseudonym_value text);
\copy ledger FROM '$work/ledger.tsv'
SELECT
  (SELECT count(*) FROM ledger l LEFT JOIN pseudonyms p
     ON p.namespace_name = 'ha' AND p.original_value = l.original_value
   WHERE p.pseudonym_value IS DISTINCT FROM l.pseudonym_value),
  (SELECT count(*) FROM (SELECT pseudonym_value FROM pseudonyms GROUP BY namespace_name, pseudonym_value
     HAVING count(*) > 1) d),
  (SELECT count(*) FROM pseudonyms WHERE namespace_name = 'ha'),
  (SELECT count(*) FROM pseudonyms p WHERE namespace_name = 'ha' AND original_value NOT LIKE 'probe-%'
     AND NOT EXISTS (SELECT FROM ledger l WHERE l.original_value = p.original_value));
SQL
)
counts=""
for k in 1 2 3; do
  counts="$counts pg$k $(PGPASSWORD=ha-postgres psql -h 127.0.0.1 -p "$(pg_port "$k")" -U postgres -d vfps -t -A \
    -c "SELECT count(*) FROM pseudonyms WHERE namespace_name = 'ha'" 2>/dev/null || echo '?')"
done
note "database: $rows rows ($unacknowledged committed but never acknowledged); acknowledged pairs missing or different: $lost; pseudonyms shared by two values: $duplicates; rows on each node:$counts; $(members | awk '{printf "%s %s; ", $1, $2}')"

if [ "$LIMITS" = yes ]; then
  memory=""
  for k in 1 2 3; do
    m=/sys/fs/cgroup/memory/$(group "$k")
    memory="$memory replica $k $(($(cat "$m/memory.max_usage_in_bytes") / 1048576)) MiB ($(awk '/oom_kill /{print $2}' "$m/memory.oom_control") kernel OOM kills);"
  done
  note "peak memory of the pods' cgroups (limit $MEMORY_MIB MiB, every start of a replica together):$memory"
fi

# evidence for the report, before everything stops (head ends pipelines early: no set -e here)
(
  set +e
  echo "vfps log lines at WARN or ERROR, by message (timestamps and ids cut):"
  cat "$work"/logs/vfps[123].log | grep -E ' (WARN|ERROR) ' |
    sed -E 's/^[0-9:. TZ-]+//; s/[0-9a-f]{8}-[0-9a-f-]{27}//g; s/[0-9]+ ms/N ms/g' |
    sort | uniq -c | sort -rn | head -25
  echo "and in java.util.logging's own format, each with a stack trace:"
  cat "$work"/logs/vfps[123].log | grep -E '^(WARNING|SEVERE): ' | grep -v 'sun.misc.Unsafe' |
    sort | uniq -c | sort -rn | head -5
  echo
  echo "the load generator's own complaints:"
  grep -v -E '^[0-9]+ s:|^WARNING' "$work/logs/client.log" | head -15
  echo
  echo "status messages seen by the load (count, status: message):"
  cat "$work/logs/calls.tsv.messages" 2>/dev/null | sort -rn | head -15
  echo
  echo "HAProxy:"
  grep -E 'is (UP|DOWN)|no server available' "$work/logs/haproxy.log" | head -30
  true
) >"$work/logs/evidence.txt"

run_cleanups
echo
echo "# HA rehearsal ($HA_PROFILE): $RATE Creates/s, ${DEADLINE_MS} ms deadline, load $(((load_end - $(sed -n 1p "$work/phases.tsv" | cut -f2)) / 1000)) s, run $((($(now_ms) - SAY_START_MS) / 1000)) s"
echo
cat "$work/notes.md"
echo
sed 's/^/    /' "$work/logs/evidence.txt"
echo
client report --calls "$work/logs/calls.tsv" --phases "$work/phases.tsv" --windows "$work/windows.tsv" \
  --rate "$RATE" --deadline-ms "$DEADLINE_MS" \
  --verify "$work/logs/verify.out" --duplicates "$duplicates" --lost-in-sql "$lost" --crashes "$crashes" \
  --max-outage "$MAX_OUTAGE_SECONDS" --max-unavailable "$MAX_UNAVAILABLE_SECONDS" \
  --max-overrun "$MAX_OVERRUN_SECONDS" --max-recovery "$MAX_RECOVERY_SECONDS"
