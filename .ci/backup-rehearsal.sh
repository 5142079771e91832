#!/usr/bin/env bash
# Backup and point-in-time recovery, rehearsed on one machine with real parts
# (docs/deployment/backup.md):
#
#   1. a PostgreSQL 15 cluster that archives its WAL (archive_mode, an archive_command that copies
#      each finished segment into a directory, as pgBackRest's archive-push or CloudNativePG's
#      barman-cloud push it to an object store), and vfps (target/vfps.jar) on it;
#   2. an open-model load (.ci/HaRehearsalClient.java): RATE Creates per second of fresh values,
#      every acknowledged pair in a ledger with the wall-clock time of its acknowledgement;
#   3. under that load: a base backup (pg_basebackup, the cluster's own tool: a consistent copy of
#      a running cluster), then, BEFORE_TARGET seconds later, the recovery target time, then
#      AFTER_TARGET seconds more of load; the last WAL segment is archived and the cluster stopped
#      with `immediate`, as a lost server stops;
#   4. the restore: the base backup copied into a new data directory, recovery to the target time
#      from the archive (restore_command, recovery_target_time, recovery_target_action = promote),
#      the new cluster promoted, vfps started on it;
#   5. the verdict: the restored pseudonyms against the ledger. Every pair acknowledged more than a
#      second before the target must be there with its pseudonym (lost: missing or different), and
#      the ledger's pairs before the target are replayed through vfps (a re-Create answers the same
#      pseudonym, a Get the original value); no pair acknowledged more than a second after the target
#      may be there. Pairs acknowledged within a second of the target are counted in neither (a
#      commit and its acknowledgement are not the same instant). Its last line:
#        PITR: <a> acknowledged before the target, <l> lost, <x> after the target present
#      and the exit status is 1 unless l = 0 and x = 0.
#
#   .ci/backup-rehearsal.sh                              # 20 s + 20 s of load at 100 Creates/s
#   BACKUP_PROFILE=short .ci/backup-rehearsal.sh         # 8 s + 8 s, as CI runs it
#
# pg_basebackup and WAL archiving rather than pgBackRest: they are PostgreSQL's own mechanism, which
# pgBackRest and CloudNativePG's backups drive (a base backup, the archived WAL, recovery to a
# target), with nothing else to configure or to fail; the commands of the restore are those an
# operator runs by hand with either tool's backup on disk.
#
# Needs root (to run PostgreSQL as the postgres user), PostgreSQL 15 binaries in
# /usr/lib/postgresql/15, the jar (./mvnw -B -ntp package -DskipTests), a JDK 21+ (JAVA_HOME) and
# python3. Everything listens on 127.0.0.1, on PORT_BASE (25600) to PORT_BASE+9, never on the
# machine's own PostgreSQL; everything started is stopped on exit (KEEP_WORK=yes keeps the data
# directories; the logs are always kept).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

BACKUP_PROFILE=${BACKUP_PROFILE:-full}
case "$BACKUP_PROFILE" in
  full) BEFORE_TARGET=${BEFORE_TARGET:-20} AFTER_TARGET=${AFTER_TARGET:-20} ;;
  short) BEFORE_TARGET=${BEFORE_TARGET:-8} AFTER_TARGET=${AFTER_TARGET:-8} ;;
  *) echo "BACKUP_PROFILE must be full or short" >&2 && exit 2 ;;
esac
RATE=${RATE:-100}
DEADLINE_MS=${DEADLINE_MS:-5000}
PORT_BASE=${PORT_BASE:-25600}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
java=$JAVA_HOME/bin/java
primary_port=$PORT_BASE restored_port=$((PORT_BASE + 1))
http_port=$((PORT_BASE + 2)) grpc_port=$((PORT_BASE + 3))

if [ "$(id -u)" -ne 0 ]; then
  echo "run as root: it runs PostgreSQL as the postgres user" >&2
  exit 2
fi
for tool in "$PG_BIN/postgres" "$PG_BIN/pg_basebackup" "$java" target/vfps.jar; do
  [ -e "$tool" ] || { echo "missing: $tool" >&2 && exit 2; }
done

work=$(mktemp -d /tmp/vfps-backup.XXXXXX)
chmod 755 "$work"
# PostgreSQL writes its logs there too
install -d -o postgres -m 755 "$work/logs"
SAY_START_MS=$(now_ms) SAY_STYLE=timed
on_exit 'say "logs in $work/logs"'
on_exit '[ "${KEEP_WORK:-no}" = yes ] || rm -rf "$work/primary" "$work/restored" "$work/base" "$work/archive"'
stop_clusters() {
  for cluster in primary restored; do
    [ -f "$work/$cluster/postmaster.pid" ] &&
      "${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$work/$cluster" -m immediate stop >/dev/null 2>&1
  done
}
on_exit stop_clusters
vfps_pid="" load_pid=""
on_exit 'stop_process "$vfps_pid"'
on_exit '[ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null'

psql_at() { # port, SQL: one value
  "${AS_POSTGRES[@]}" "$PG_BIN/psql" -h 127.0.0.1 -p "$1" -U postgres -d vfps -At -c "$2"
}
connection() { echo "Host=127.0.0.1;Port=$1;Database=vfps;Username=postgres"; }
start_vfps() { # port of the database, log
  ConnectionStrings__PostgreSQL=$(connection "$1") Grpc__Port=$grpc_port Http__Port=$http_port \
    MetricsPort=0 start_java "$2" "started in" -jar target/vfps.jar
  vfps_pid=$STARTED_PID
}
stop_vfps() {
  kill "$vfps_pid" && wait "$vfps_pid" 2>/dev/null || true
  vfps_pid=""
}
client() { "$java" -cp "$work/classes:target/vfps.jar" HaRehearsalClient "$@"; }

say "compiling the load generator"
"$JAVA_HOME/bin/javac" -nowarn -d "$work/classes" -cp target/vfps.jar .ci/HaRehearsalClient.java \
  2>"$work/logs/javac.log" || { cat "$work/logs/javac.log" >&2 && exit 1; }

# ------------------------------------------------------------------ the cluster, archiving its WAL
say "PostgreSQL on $primary_port, archiving its WAL into $work/archive"
install -d -o postgres -m 700 "$work/archive" "$work/base"
pg_throwaway_cluster "$work/primary" "$primary_port" "$work/logs/initdb.log"
cat >>"$work/primary/postgresql.conf" <<CONF
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $work/archive/%f && cp %p $work/archive/%f'
# a segment at least every 10 s, so that a quiet cluster's last commits reach the archive too
archive_timeout = 10
CONF
"${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$work/primary" -l "$work/logs/primary.log" -w start >/dev/null
"${AS_POSTGRES[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$primary_port" -U postgres vfps

say "vfps on gRPC $grpc_port, migrating the database"
ForceRunDatabaseMigrations=true start_vfps "$primary_port" "$work/logs/vfps.log"

# ------------------------------------------------------------------ load, backup, target, more load
say "load: $RATE Creates/s"
client load --targets "127.0.0.1:$grpc_port" --readiness "127.0.0.1:$http_port" --namespace backup \
  --rate "$RATE" --deadline-ms "$DEADLINE_MS" --ledger "$work/ledger.tsv" --calls "$work/calls.tsv" \
  --acks "$work/acks.tsv" --stop "$work/stop" >"$work/logs/load.out" 2>"$work/logs/load.log" &
load_pid=$!
sleep 3
say "base backup under load (pg_basebackup, WAL from the archive)"
"${AS_POSTGRES[@]}" "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres \
  -D "$work/base" -X none -c fast >"$work/logs/basebackup.log" 2>&1
sleep "$BEFORE_TARGET"
target_ms=$(date +%s%3N)
target=$(date -u -d "@$((target_ms / 1000)).$(printf '%03d' $((target_ms % 1000)))" '+%Y-%m-%d %H:%M:%S.%3N+00')
say "recovery target: $target"
sleep "$AFTER_TARGET"
touch "$work/stop"
wait "$load_pid" || { cat "$work/logs/load.log" >&2 && exit 1; }
load_pid=""
stop_vfps
say "the last WAL segment archived, then the cluster lost (pg_ctl stop -m immediate)"
segment=$(psql_at "$primary_port" "SELECT pg_walfile_name(pg_switch_wal())")
wait_for 20 0.2 "" test -f "$work/archive/$segment" || true
[ -f "$work/archive/$segment" ] || { echo "WAL segment $segment was not archived" >&2 && exit 1; }
"${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$work/primary" -m immediate stop >/dev/null

# ------------------------------------------------------------------ the restore
say "restore into a new cluster on $restored_port, recovering to the target"
install -d -o postgres -m 700 "$work/restored"
cp -a "$work/base/." "$work/restored/"
cat >>"$work/restored/postgresql.conf" <<CONF
port = $restored_port
unix_socket_directories = '$work/restored'
archive_mode = off
restore_command = 'cp $work/archive/%f %p'
recovery_target_time = '$target'
recovery_target_action = 'promote'
CONF
"${AS_POSTGRES[@]}" touch "$work/restored/recovery.signal"
"${AS_POSTGRES[@]}" "$PG_BIN/pg_ctl" -D "$work/restored" -l "$work/logs/restored.log" -w -t 120 start >/dev/null
promoted() { [ "$(psql_at "$restored_port" 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]; }
wait_for 60 0.2 "" promoted || true
[ "$(psql_at "$restored_port" 'SELECT pg_is_in_recovery()')" = f ] ||
  { tail -20 "$work/logs/restored.log" >&2 && exit 1; }
grep -m1 'recovery stopping before' "$work/logs/restored.log" | sed 's/^.*LOG: */   /' >&2 || true

psql_at "$restored_port" "COPY (SELECT original_value, pseudonym_value FROM pseudonyms
  WHERE namespace_name = 'backup' AND sequence_number = 0) TO STDOUT" >"$work/restored.tsv"

# the ledger's pairs acknowledged more than a second before the target, for the replay
python3 - "$work" "$target_ms" <<'PY'
import os, sys
work, target = sys.argv[1], int(sys.argv[2])
acks = dict(line.rstrip("\n").split("\t") for line in open(os.path.join(work, "acks.tsv")) if line.strip())
with open(os.path.join(work, "ledger.tsv")) as ledger, \
        open(os.path.join(work, "before.tsv"), "w") as before:
    for line in ledger:
        original = line.split("\t", 1)[0]
        if line.strip() and int(acks[original]) < target - 1000:
            before.write(line)
PY

say "vfps on the restored cluster; the ledger's pairs before the target replayed"
start_vfps "$restored_port" "$work/logs/vfps-restored.log"
client verify --targets "127.0.0.1:$grpc_port" --namespace backup --ledger "$work/before.tsv" \
  >"$work/logs/verify.out" 2>"$work/logs/verify.log" || { cat "$work/logs/verify.log" >&2 && exit 1; }
stop_vfps

python3 - "$work" "$target_ms" "$target" <<'PY'
import os, sys
work, target, target_text = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def pairs(name):
    return dict(line.rstrip("\n").split("\t")[:2] for line in open(os.path.join(work, name)) if line.strip())
ledger, restored = pairs("ledger.tsv"), pairs("restored.tsv")
acks = {k: int(v) for k, v in pairs("acks.tsv").items()}
before = [o for o in ledger if acks[o] < target - 1000]
after = [o for o in ledger if acks[o] > target + 1000]
near = len(ledger) - len(before) - len(after)
lost = [o for o in before if restored.get(o) != ledger[o]]
present = [o for o in after if o in restored]
replay = dict(line.strip().split("=", 1) for line in open(os.path.join(work, "logs", "verify.out"))
              if "=" in line and not line.startswith(("example=", "status_message=")))
failed = sum(int(replay[k]) for k in ("p2_changed", "p2_unverified", "p3_wrong", "p3_not_found",
                                       "p3_unverified"))
print(f"target {target_text}: {len(ledger)} pairs acknowledged in all, {near} within a second of the"
      f" target (counted in neither), {len(restored)} pairs in the restored database")
print(f"replay through vfps of the {replay['pairs']} pairs before the target: re-Create changed"
      f" {replay['p2_changed']}, Get wrong {replay['p3_wrong']}, not found {replay['p3_not_found']},"
      f" not verifiable {int(replay['p2_unverified']) + int(replay['p3_unverified'])}")
for label, values in (("lost", lost), ("present after the target", present)):
    for original in values[:5]:
        print(f"  {label}: {original} (acknowledged {acks[original] - target:+d} ms from the target)")
print(f"PITR: {len(before)} acknowledged before the target, {len(lost)} lost, "
      f"{len(present)} after the target present")
sys.exit(0 if not lost and not present and not failed and before and after else 1)
PY
