#!/bin/sh
# Makes the cluster on the first start (superuser POSTGRES_USER with POSTGRES_PASSWORD, database
# POSTGRES_DB, password authentication over TCP), then runs PostgreSQL in the foreground.
set -eu
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "POSTGRES_PASSWORD must be set: the cluster accepts password logins over TCP only" >&2
    exit 1
  fi
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
  initdb -D "$PGDATA" -U "$user" --pwfile="$password_file" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    createdb -U "$user" "$database"
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "made the cluster in $PGDATA: user $user, database $database"
fi
exec postgres -D "$PGDATA"
