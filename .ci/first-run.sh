#!/usr/bin/env bash
# The README's first run, checked: the jar started with no database configured (so it runs its
# embedded PostgreSQL), as an ordinary user, answers grpcurl; after a restart it still knows the
# pseudonym it made.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
jar=$(realpath "$1")
root=$(pwd)
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

if ! command -v grpcurl >/dev/null; then
  export GOBIN="${GOBIN:-$HOME/go/bin}"
  export PATH="$GOBIN:$PATH"
  command -v grpcurl >/dev/null || go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.4
fi

user=vfps-first-run
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /usr/sbin/nologin "$user"
home=$(mktemp -d /tmp/vfps-first-run.XXXXXX)
on_exit 'rm -rf "$home"'
install -d -o "$user" "$home" "$home/tmp"
install -o "$user" -m 0644 "$jar" "$home/vfps.jar"
pid=""
on_exit 'stop_process "$pid"'

start() {
  (cd "$home" && exec runuser -u "$user" -- env -i PATH="$PATH" HOME="$home" \
    "$JAVA_HOME/bin/java" -Djava.io.tmpdir="$home/tmp" -jar vfps.jar >>"$home/vfps.log" 2>&1) &
  pid=$!
  wait_for 120 1 "$pid" vfps_serving 127.0.0.1:8080 127.0.0.1:8081 && return 0
  cat "$home/vfps.log"
  echo "vfps did not start" >&2
  exit 1
}

stop() {
  kill "$pid"
  wait "$pid" || true
  pid=""
}

protos=(-import-path "$root/src/main/proto" -import-path "$root/target/proto" -proto vfps/api/v1/namespaces.proto -proto vfps/api/v1/pseudonyms.proto)

start
grep -q "development database" "$home/vfps.log"
grpcurl -plaintext "${protos[@]}" -d '{"name": "first-run", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_SECURE_RANDOM_BASE64URL_ENCODED", "pseudonymLength": 32}' \
  127.0.0.1:8081 vfps.api.v1.NamespaceService/Create
first=$(grpcurl -plaintext "${protos[@]}" -d '{"namespace": "first-run", "originalValue": "hello world"}' \
  127.0.0.1:8081 vfps.api.v1.PseudonymService/Create)
echo "$first"
value=$(echo "$first" | sed -n 's/.*"pseudonymValue": "\([^"]*\)".*/\1/p' | head -n 1)
[ "${#value}" -eq 54 ] || { echo "unexpected pseudonym: $value" >&2; exit 1; }
# the HTTP front door of the same jar: probes, REST and FHIR answer with that pseudonym
curl -fsS 127.0.0.1:8080/readyz
curl -fsS -X POST -H 'Content-Type: application/json' -d '{"originalValue": "hello world"}' \
  127.0.0.1:8080/v1/namespaces/first-run/pseudonyms | grep -q "\"$value\""
curl -fsS -X POST -H 'Content-Type: application/fhir+json' \
  -d '{"resourceType": "Parameters", "parameter": [{"name": "namespace", "valueString": "first-run"}, {"name": "originalValue", "valueString": "hello world"}]}' \
  '127.0.0.1:8080/v1/fhir/$create-pseudonym' | grep -q "$value"
curl -fsS 127.0.0.1:8080/ | grep -qi swagger
stop

start
again=$(grpcurl -plaintext -d '{"namespace": "first-run", "originalValue": "hello world"}' \
  127.0.0.1:8081 vfps.api.v1.PseudonymService/Create)
echo "$again"
echo "$again" | grep -q "\"$value\"" || { cat "$home/vfps.log"; echo "pseudonym changed after restart" >&2; exit 1; }
stop
test "$(stat -c %U "$home/data/postgres")" = "$user"
# a port another process holds stops the start with a line that names its key, not a stack trace
python3 -c 'import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 8083)); s.listen(); time.sleep(120)' &
holder=$!
sleep 1
set +e
(cd "$home" && runuser -u "$user" -- env -i PATH="$PATH" HOME="$home" timeout 120 \
  "$JAVA_HOME/bin/java" -Djava.io.tmpdir="$home/tmp" -jar vfps.jar >"$home/taken.log" 2>&1)
taken=$?
set -e
kill "$holder"
[ "$taken" -eq 1 ] && grep -q "S3__Embedded__Port" "$home/taken.log" && ! grep -q $'\tat ' "$home/taken.log" \
  || { cat "$home/taken.log"; echo "a taken S3 port: exit $taken, expected 1 naming S3__Embedded__Port without a stack trace" >&2; exit 1; }
echo "first run: OK (embedded PostgreSQL, user $user, pseudonym kept across a restart)"
