#!/usr/bin/env bash
# The new pseudonyms key, measured under writes: how long writes stall while `vfps migrate` takes a
# database of vfps 1.10's schema with ROWS pseudonyms (default 10,000,000) to the .NET 1.22 schema,
# whose pk_pseudonyms covers (namespace_name, original_value, sequence_number). Migration 6 builds
# the new key's index and the new keyset index concurrently and takes the table's ACCESS EXCLUSIVE
# lock only for adding the column and for moving the key onto the built index.
#
#   loadtest/pk-swap-stall.sh
#   ROWS=1000000 RATE=500 loadtest/pk-swap-stall.sh
#
# On 127.0.0.1 only: database vfps_pkswap (and vfps_pkswap_scratch, for Flyway's history) owned by
# the role vfps_bench, made through an admin psql as scripts/lib.sh does, both dropped at the end.
# The schema of 1.10 is the released migration files V1 to V4 run by psql, with Flyway's history of
# them taken from a scratch database the jar migrated (the same files, so the same checksums). The
# rows come from generate_series, loaded before their indexes are built.
#
# The writes: pgbench, CLIENTS connections (4) at RATE inserts per second in all (200), each a new
# pseudonym in 1.10's shape, in rounds of ROUND seconds (pgbench stops only after a fixed time; the
# reconnect between rounds takes milliseconds), from BASELINE seconds before the migration until 5
# after.
# They are 1.10's inserts but for the conflict clause: 1.10 says ON CONFLICT (namespace_name,
# original_value), which names the key that the migration replaces and fails once it is replaced
# (no unique index matches it any more); ON CONFLICT DO NOTHING without a target works under
# either key, and a new row's sequence_number takes its default, 0. Every insert's latency is
# logged (pgbench -l) from its scheduled start, so the time a write waits for a lock counts, also
# when it delays the writes scheduled after it on that connection.
#
# Prints the migration's duration and its steps (from its log, with how long the table's lock was
# waited for and held), the writes during it, the longest write before it (BASELINE seconds, 20) and
# during it, the longest time in which no write completed, what the writers were seen waiting on
# (pg_stat_activity every 50 ms: a lock, or WAL and I/O), and write errors. Bounded: the migration gets
# MIGRATE_TIMEOUT seconds (1800), then everything stops. Needs a local PostgreSQL, psql, pg_dump,
# pgbench, python3 and the jar (./mvnw package).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ROWS=${ROWS:-10000000}
CLIENTS=${CLIENTS:-4}
RATE=${RATE:-200}
ROUND=${ROUND:-10}
BASELINE=${BASELINE:-20}
MIGRATE_TIMEOUT=${MIGRATE_TIMEOUT:-1800}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
DATABASE=vfps_pkswap
SCRATCH=vfps_pkswap_scratch
work=$(mktemp -d /tmp/vfps-pkswap.XXXXXX)
on_exit 'rm -rf "$work"'
writer=""
sampler=""
drop_databases() {
  admin_psql -q -c "DROP DATABASE IF EXISTS $DATABASE WITH (FORCE)" \
    -c "DROP DATABASE IF EXISTS $SCRATCH WITH (FORCE)" >/dev/null
}
on_exit drop_databases
on_exit 'stop_process "$sampler"'
on_exit 'stop_process "$writer"'
on_exit 'touch "$work/stop"'
now() { date +%s.%N; }
# the role's own clients, over TCP to 127.0.0.1 (the admin psql keeps its own environment)
bench() { PGHOST=127.0.0.1 PGUSER=vfps_bench PGPASSWORD=vfps_bench "$@"; }

say "== databases $DATABASE and $SCRATCH (fresh)"
drop_databases
admin_psql -q -v ON_ERROR_STOP=1 <<SQL
SELECT 'CREATE ROLE vfps_bench LOGIN PASSWORD ''vfps_bench'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_bench') \gexec
CREATE DATABASE $DATABASE OWNER vfps_bench;
CREATE DATABASE $SCRATCH OWNER vfps_bench;
SQL

say "== the schema of vfps 1.10: migrations V1 to V4 and Flyway's history of them"
for version in 1 2 3 4; do
  bench psql -q -v ON_ERROR_STOP=1 -1 -d "$DATABASE" -f src/main/resources/db/migration/V${version}__*.sql
done
ConnectionStrings__PostgreSQL="Host=127.0.0.1;Database=$SCRATCH;Username=vfps_bench;Password=vfps_bench" \
  "$JAVA_HOME/bin/java" -jar target/vfps.jar migrate >"$work/scratch.log" 2>&1
bench pg_dump --schema-only --no-owner -t flyway_schema_history "$SCRATCH" | bench psql -q -v ON_ERROR_STOP=1 -d "$DATABASE" >/dev/null
bench psql -q -d "$SCRATCH" -c "\copy (SELECT * FROM flyway_schema_history WHERE version IN ('1', '2', '3', '4')) TO STDOUT" |
  bench psql -q -v ON_ERROR_STOP=1 -d "$DATABASE" -c "\copy flyway_schema_history FROM STDIN"

say "== $ROWS pseudonyms, then their indexes as V1 to V4 leave them"
started=$(now)
bench psql -q -v ON_ERROR_STOP=1 -d "$DATABASE" <<SQL
SET maintenance_work_mem = '512MB';
ALTER TABLE pseudonyms DROP CONSTRAINT pk_pseudonyms;
DROP INDEX ix_pseudonyms_namespace_name_created_at_original_value;
DROP INDEX ix_pseudonyms_namespace_name_pseudonym_value;
INSERT INTO namespaces VALUES ('bench', '', 5, 32, '', '', now(), now());
INSERT INTO pseudonyms
  SELECT 'patient-' || i, 'bench', md5(i::text), now() - i * interval '1 millisecond',
    now() - i * interval '1 millisecond'
  FROM generate_series(1, $ROWS) i;
ALTER TABLE pseudonyms ADD CONSTRAINT pk_pseudonyms PRIMARY KEY (namespace_name, original_value);
CREATE INDEX ix_pseudonyms_namespace_name_created_at_original_value
  ON pseudonyms (namespace_name, created_at, original_value);
CREATE UNIQUE INDEX ix_pseudonyms_namespace_name_pseudonym_value
  ON pseudonyms (namespace_name, pseudonym_value);
VACUUM ANALYZE pseudonyms;
SQL
say "   loaded in $(python3 -c "print(round($(now) - $started))") s: $(bench psql -tA -d "$DATABASE" -c \
  "SELECT pg_size_pretty(pg_total_relation_size('pseudonyms'))") with indexes"

cat >"$work/insert.sql" <<'SQL'
\set r random(1, 2000000000)
INSERT INTO pseudonyms (namespace_name, original_value, pseudonym_value, created_at, last_updated_at)
VALUES ('bench', 'new-' || :client_id || '-' || :r, md5(random()::text), now(), now())
ON CONFLICT DO NOTHING;
SQL

say "== writes: pgbench, $CLIENTS connections, $RATE inserts/s, rounds of $ROUND s"
(
  round=0
  while [ ! -e "$work/stop" ]; do
    round=$((round + 1))
    bench pgbench -n -M prepared -c "$CLIENTS" -j 1 -R "$RATE" -T "$ROUND" -l \
      --log-prefix="$work/round-$round" -f "$work/insert.sql" "$DATABASE" \
      >"$work/round-$round.out" 2>&1 || true
  done
) &
writer=$!
# what the writers wait for, every 50 ms: a lock, or WAL and I/O (pg_stat_activity)
printf '%s\n' "SELECT extract(epoch FROM clock_timestamp()), pid, wait_event_type || ':' || wait_event,
  round(extract(epoch FROM clock_timestamp() - query_start) * 1000) FROM pg_stat_activity
  WHERE datname = '$DATABASE' AND application_name = 'pgbench' AND state = 'active'
    AND wait_event IS NOT NULL" '\watch 0.05' |
  bench psql -Atq -F '|' -d "$DATABASE" >"$work/waits.txt" 2>/dev/null &
sampler=$!
sleep "$BASELINE"

say "== vfps migrate, while the writes go on"
migrate_started=$(now)
status=0
ConnectionStrings__PostgreSQL="Host=127.0.0.1;Database=$DATABASE;Username=vfps_bench;Password=vfps_bench" \
  timeout "$MIGRATE_TIMEOUT" "$JAVA_HOME/bin/java" -jar target/vfps.jar migrate >"$work/migrate.log" 2>&1 ||
  status=$?
migrate_ended=$(now)
sleep 5
touch "$work/stop"
wait "$writer" || true
writer=""
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=""
if [ "$status" != 0 ]; then
  say "migrate failed (exit $status):"
  cat "$work/migrate.log" >&2
  exit 1
fi

python3 - "$work" "$migrate_started" "$migrate_ended" "$ROWS" "$BASELINE" <<'PY'
import glob, os, re, sys
from datetime import datetime

work, started, ended = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rows, baseline = int(sys.argv[4]), float(sys.argv[5])
def row(label, text):
    print(f"{label:34}{text}")

rounds = []  # per round: (completed at, latency s, of which schedule lag s), in order
for name in glob.glob(os.path.join(work, "round-*")):
    if not name.endswith(".out"):
        # client_id transaction_no time script_no time_epoch time_us schedule_lag
        rounds.append(sorted((int(f[4]) + int(f[5]) / 1e6, int(f[2]) / 1e6, int(f[6]) / 1e6)
                             for f in (line.split() for line in open(name))))
writes = sorted(w for r in rounds for w in r)


# a write that was under way (scheduled, not yet done) at some time in [a, b]
def under_way(a, b):
    return [w for w in writes if w[0] - w[1] <= b and w[0] >= a]
errors = sum(len(re.findall(r"aborted|ERROR", open(n).read()))
             for n in glob.glob(os.path.join(work, "round-*.out")))


row("rows", f"{rows:,}")
row("migration", f"{ended - started:.1f} s")
steps = {}
for line in open(os.path.join(work, "migrate.log")):
    m = re.match(r"(\S+Z) INFO .*?(PseudonymKeyMigration|VfpsServer|Migrations) - (.*)", line)
    if m:
        at = datetime.fromisoformat(m.group(1).replace("Z", "+00:00")).timestamp()
        steps[m.group(3)] = at
        row(f"  at {at - started:.1f} s", m.group(3))
row("writes during it", f"{len(under_way(started, ended)):,}")


def longest(label, a, b):
    found = under_way(a, b)
    if found:
        w = max(found, key=lambda w: w[1])
        row(label, f"{w[1] * 1000:.0f} ms (ended {w[0] - started:.1f} s in; {len(found)} writes)")


longest(f"longest write before, {baseline:.0f} s", started - baseline + 1, started)
longest("longest write during it", started, ended)
for step, label in (("Added pseudonyms.sequence_number", "  in the column's last 0.5 s"),
                    ("pk_pseudonyms now covers", "  in the key move's last 0.5 s")):
    at = next((t for text, t in steps.items() if text.startswith(step)), None)
    if at is not None:  # logged right after the step's commit
        longest(label, at - 0.5, at)
executions = sorted(w[1] - w[2] for w in under_way(started, ended))
if executions:
    row("write execution p50/p99/max", f"{executions[len(executions) // 2] * 1000:.1f} /"
        f" {executions[int(len(executions) * 0.99)] * 1000:.1f} / {executions[-1] * 1000:.0f} ms")
gaps = [(b[0] - a[0], a[0]) for r in rounds for a, b in zip(r, r[1:])
        if started <= b[0] and a[0] <= ended]
if gaps:
    gap, at = max(gaps)
    row("longest time without a write", f"{gap * 1000:.0f} ms (from {at - started:.1f} s in;"
        f" one every {1000 / max(len(executions) / (ended - started), 1):.0f} ms on average)")
waits = {}
for line in open(os.path.join(work, "waits.txt")):
    f = line.strip().split("|")
    if len(f) == 4 and started <= float(f[0]) <= ended:
        waits[f[2]] = max(waits.get(f[2], 0), float(f[3]))
for event, ms in sorted(waits.items(), key=lambda e: -e[1])[:4]:
    row("  writers seen waiting on", f"{event}, {ms:.0f} ms into the write")
row("write errors", f"{errors}")
PY
