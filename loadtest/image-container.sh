#!/usr/bin/env bash
# The image under a real container runtime: localhost/vfps:<version> (deploy/image.sh) runs under
# podman with 1 CPU, 128 MiB and a read-only root file system, as the small-container profile says.
# It checks that the container migrates a new database, passes its health check and probes, and
# answers gRPC, REST and FHIR; then it puts the benchmark's load of new values on it (ghz, gRPC
# Creates) and the same load on the plain jar (target/vfps.jar, no limits) in the same run, and
# prints both: requests per second, p99, errors, peak memory, OOM kills.
#
#   loadtest/image-container.sh                  # 50,000 creates at concurrency 50
#   REQUESTS=10000 loadtest/image-container.sh   # CI's short load
#
# Exits 1 when a check fails or the container saw an error, an OOM kill or an end under the load.
# Needs root, podman, a local PostgreSQL (scripts/lib.sh's admin psql), ghz, grpcurl, curl, jq.
# Uses the host's network namespace and the ports PORT to PORT+2 (default 48380).
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

REQUESTS=${REQUESTS:-50000}
CONCURRENCY=${CONCURRENCY:-50}
PORT=${PORT:-48380}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
image=${IMAGE:-localhost/vfps:$version}
container=vfps-image-check-$$
grpc=127.0.0.1:$PORT http=http://127.0.0.1:$((PORT + 1)) metrics=http://127.0.0.1:$((PORT + 2))
work=$(mktemp -d /tmp/vfps-image.XXXXXX)
on_exit 'rm -rf "$work"'
failures=0
check() { # description, command...: runs the command, says ok or FAILED
  local what=$1
  shift
  if "$@" >"$work/check.out" 2>&1; then
    say "ok: $what"
  else
    say "FAILED: $what: $(head -c 400 "$work/check.out")"
    failures=$((failures + 1))
  fi
}

podman image exists "$image" || { say "no image $image: run deploy/image.sh first"; exit 1; }

# a new, empty database: the container migrates it (ForceRunDatabaseMigrations)
admin_psql -q -v ON_ERROR_STOP=1 <<SQL
DROP DATABASE IF EXISTS vfps_image;
SELECT 'CREATE ROLE vfps_bench LOGIN PASSWORD ''vfps_bench'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_bench') \gexec
CREATE DATABASE vfps_image OWNER vfps_bench;
SQL
database="Host=127.0.0.1;Port=5432;Database=vfps_image;Username=vfps_bench;Password=vfps_bench"

read -ra ulimits <<<"$(podman_ulimits)"

# The image's files in the page cache, read once outside the container's limit, as a pull or an
# earlier start leaves them. With a cold cache the container's limit is charged for them too, and
# 128 MiB cannot hold both the service's ~97 MiB of anonymous memory and its ~100 MiB of file pages
# (the jar and the AOT cache): it thrashes and is not ready in two minutes (docs/deployment/index.md).
say "the image's jar and AOT cache read once into the page cache, outside the container's limit"
podman run --rm --entrypoint cat "${ulimits[@]}" \
  "$image" /opt/vfps/vfps.jar /opt/vfps/vfps.aot >/dev/null

say "the image $image: 1 CPU, 128 MiB (no swap), read-only, no capabilities"
on_exit 'podman rm -f "$container" >/dev/null 2>&1 || true'
# podman without systemd cannot schedule the health check (it says so on stderr): run it by hand
podman run -d --name "$container" --network host \
  --cpus 1 --memory 128m --memory-swap 128m --read-only --cap-drop ALL \
  --security-opt no-new-privileges "${ulimits[@]}" \
  -e "ConnectionStrings__PostgreSQL=$database" -e ForceRunDatabaseMigrations=true \
  -e "Grpc__Port=$PORT" -e "Http__Port=$((PORT + 1))" -e "MetricsPort=$((PORT + 2))" \
  -e "VFPS_HEALTH_PORT=$((PORT + 1))" \
  "$image" >/dev/null 2>"$work/podman-run.err"
if ! wait_for 90 0.5 "" url_answers "$http/readyz"; then
  podman logs "$container" 2>&1 | tail -20
  say "FAILED: the container did not get ready"
  exit 1
fi
# the schema is there: the namespaces table exists (and is empty)
migrated() {
  podman logs "$container" 2>&1 | grep -q 'Database schema is up to date' &&
    [ "$(admin_psql -d vfps_image -tAc 'SELECT count(*) FROM namespaces')" = 0 ]
}
check "the container migrated the new database" migrated
check "the image's health check says healthy" podman healthcheck run "$container"
for probe in healthz readyz livez; do
  check "/$probe answers 200" url_answers "$http/$probe"
done
check "it runs as uid 65534 on a read-only root" sh -c \
  "podman exec $container sh -c 'id -u; touch /opt/vfps/x 2>&1' | tr '\n' ' ' | grep -q '^65534 .*Read-only file system'"
check "gRPC: a namespace" grpcurl -plaintext -d '{"name": "image", "pseudonymLength": 32}' \
  "$grpc" vfps.api.v1.NamespaceService/Create
check "gRPC: a pseudonym" sh -c "grpcurl -plaintext -d '{\"namespace\": \"image\", \"originalValue\": \"patient-1\"}' \
  $grpc vfps.api.v1.PseudonymService/Create | jq -er .pseudonym.pseudonymValue > $work/grpc.pseudonym"
check "REST: the same pseudonym" sh -c "curl -fsS -X POST $http/v1/namespaces/image/pseudonyms \
  -H 'Content-Type: application/json' -d '{\"originalValue\": \"patient-1\"}' |
  jq -er .pseudonym.pseudonymValue | cmp -s - $work/grpc.pseudonym"
check "FHIR: the same pseudonym" sh -c "curl -fsS -X POST '$http/v1/fhir/\$create-pseudonym' \
  -H 'Content-Type: application/fhir+json' -d '{\"resourceType\": \"Parameters\", \"parameter\": [{\"name\": \"namespace\", \"valueString\": \"image\"}, {\"name\": \"originalValue\", \"valueString\": \"patient-1\"}]}' |
  jq -er '.parameter[] | select(.name == \"pseudonymValue\") | .valueString' | cmp -s - $work/grpc.pseudonym"
check "/metrics says the version" sh -c "curl -fsS $metrics/metrics | grep -q 'vfps_build_info{.*version=\"$version\"'"

# load: label, gRPC address; a warm-up, then REQUESTS creates of new values
load() {
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n 5000 \
    -d '{"namespace": "image", "originalValue": "warm-{{randomString 16}}"}' "$2" >/dev/null
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" -n "$REQUESTS" -O json \
    -d '{"namespace": "image", "originalValue": "{{randomString 32}}"}' "$2" >"$work/$1.json"
}

say "$REQUESTS gRPC creates of new values at concurrency $CONCURRENCY: the container"
load container "$grpc"
cgroup=$(podman inspect --format '{{.State.CgroupPath}}' "$container")
if [ -f "/sys/fs/cgroup$cgroup/memory.peak" ]; then
  peak=$(cat "/sys/fs/cgroup$cgroup/memory.peak")
else
  peak=$(cat "/sys/fs/cgroup/memory$cgroup/memory.max_usage_in_bytes")
fi
running=$(podman inspect --format '{{.State.Running}}' "$container")
oom=$(podman inspect --format '{{.State.OOMKilled}}' "$container")
check "the container still runs after the load" test "$running" = true
check "no OOM kill" test "$oom" = false
# on failure: the lines before the first stack trace, with the log line that began it
quiet_log() { ! podman logs "$container" 2>&1 | grep -E -B 3 -m 1 ' ERROR |^\s+at '; }
check "no error or stack trace in the container's log" quiet_log
podman logs "$container" >"${CONTAINER_LOG:-/dev/null}" 2>&1
podman rm -f "$container" >/dev/null 2>&1

say "the same load: the plain jar (target/vfps.jar, no limits)"
export ConnectionStrings__PostgreSQL=$database Grpc__Port=$PORT Http__Port=$((PORT + 1)) MetricsPort=$((PORT + 2))
"$JAVA_HOME/bin/java" -jar target/vfps.jar >"$work/jar.log" 2>&1 &
pid=$!
on_exit 'stop_process "$pid"'
wait_for 60 0.2 "" grpc_serving "$grpc" || { tail -20 "$work/jar.log"; exit 1; }
load jar "$grpc"
jar_rss=$(($(ps -o rss= -p "$pid") * 1024))
stop_process "$pid"

python3 - "$work" "$REQUESTS" "$CONCURRENCY" "$peak" "$jar_rss" "$oom" <<'PY'
import json, os, sys
work, requests, concurrency, peak, jar_rss, oom = sys.argv[1:]
rows = {}
for label in ("container", "jar"):
    r = json.load(open(os.path.join(work, label + ".json")))
    p99 = {p["percentage"]: p["latency"] / 1e6 for p in r.get("latencyDistribution") or []}.get(99)
    ok = (r.get("statusCodeDistribution") or {}).get("OK", 0)
    rows[label] = (r["rps"], p99, r["count"] - ok)
print(f"\n{int(requests):,} gRPC creates of new values at concurrency {concurrency}\n")
print("| run | requests/s | p99 ms | errors | peak memory MiB | OOM kills |")
print("|---|---:|---:|---:|---:|---:|")
print(f"| image under podman, 1 CPU, 128 MiB, read-only | {rows['container'][0]:,.0f} | {rows['container'][1]:.2f} | {rows['container'][2]} | {int(peak) / 2**20:.1f} (cgroup peak, page cache included) | {1 if oom == 'true' else 0} |")
print(f"| plain jar, no limits | {rows['jar'][0]:,.0f} | {rows['jar'][1]:.2f} | {rows['jar'][2]} | {int(jar_rss) / 2**20:.1f} (RSS at end) | 0 |")
print(f"\ncontainer / jar throughput: {rows['container'][0] / rows['jar'][0]:.2f}")
sys.exit(1 if rows["container"][2] else 0)
PY
[ "$failures" = 0 ] || { say "$failures checks failed"; exit 1; }
