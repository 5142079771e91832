#!/usr/bin/env bash
# What the audit chain costs a reverse lookup: ghz runs gRPC PseudonymService/Get of known
# pseudonyms (one audit line per call) against the jar with its audit lines chained without
# checkpoints, chained with checkpoints signed by a key (Audit__SigningKeyFile, a checkpoint every
# 1,000 lines), and, when BASE_JAR names a jar without the chain (one built from a commit before
# it), against that jar, ROUNDS times in turn. It prints requests per second and the service's CPU
# per call (user + system, from /proc) of each run, and their ratios to the first kind of the same
# round.
#
#   loadtest/audit.sh                                    # 3 rounds of 30,000 requests at 50
#   BASE_JAR=/tmp/vfps-base.jar ROUNDS=2 REQUESTS=20000 loadtest/audit.sh
#
# The audit lines go to the service's standard output, a file here, as in a deployment whose
# collector reads it. Needs: a local PostgreSQL (as loadtest/benchmark.sh), the jar (./mvnw
# package), ghz and grpcurl, python3.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ROUNDS=${ROUNDS:-3}
REQUESTS=${REQUESTS:-30000}
CONCURRENCY=${CONCURRENCY:-50}
JAR=${JAR:-target/vfps.jar}
BASE_JAR=${BASE_JAR:-}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
GRPC_PORT=${GRPC_PORT:-48281}
HTTP_PORT=${HTTP_PORT:-48280}
KNOWN=1000
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-audit-bench.XXXXXX)
on_exit 'rm -rf "$work"'
service_pid=""
on_exit 'stop_process "$service_pid"'

say "== database vfps_audit_bench (fresh), a checkpoint key"
fresh_database vfps_audit_bench
connection=$ConnectionStrings__PostgreSQL
"$JAVA" -jar "$JAR" audit new-key --out "$work/audit-key.pem" >/dev/null 2>&1

kinds=(chained signed)
if [ -n "$BASE_JAR" ]; then
  kinds=(base chained signed)
fi

start_service() { # kind: base | chained | signed
  local jar=$JAR
  local -a audit=()
  case $1 in
    base) jar=$BASE_JAR ;;
    signed) audit=("Audit__SigningKeyFile=$work/audit-key.pem") ;;
  esac
  env "${audit[@]}" ConnectionStrings__PostgreSQL="$connection" Grpc__Port="$GRPC_PORT" \
    Http__Port="$HTTP_PORT" MetricsPort=0 "$JAVA" -jar "$jar" >"$work/vfps-$1.log" 2>&1 &
  service_pid=$!
  # the start line, so that start-up work is not measured
  wait_for 120 0.5 "$service_pid" log_has "$work/vfps-$1.log" "started in" && return
  say "vfps ($1) did not start:"
  tail -20 "$work/vfps-$1.log" >&2
  exit 1
}
stop_service() { kill "$service_pid"; wait "$service_pid" 2>/dev/null || true; service_pid=""; }

ghz_get() { # name, then ghz arguments
  local name=$1
  shift
  ghz --insecure --call vfps.api.v1.PseudonymService/Get -c "$CONCURRENCY" \
    -D "$work/get.json" -O json -o "$work/$name.json" "$@" "127.0.0.1:$GRPC_PORT"
}

say "== the known set: $KNOWN values and their pseudonyms"
start_service chained
grpcurl -plaintext -d '{"name": "bench", "pseudonymLength": 32}' "127.0.0.1:$GRPC_PORT" \
  vfps.api.v1.NamespaceService/Create >/dev/null
python3 - "$work/get.json" "$KNOWN" "$HTTP_PORT" <<'PY'
import json, sys, urllib.request
out, known, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
values = [f"known-{i:04d}" for i in range(known)]
request = urllib.request.Request(
    f"http://127.0.0.1:{port}/v1/namespaces/bench/pseudonyms:batchCreate",
    data=json.dumps({"originalValues": values}).encode(),
    headers={"Content-Type": "application/json"})
reply = json.load(urllib.request.urlopen(request))
json.dump([{"namespace": "bench", "pseudonymValue": p["pseudonymValue"]} for p in reply["pseudonyms"]],
          open(out, "w"))
PY
stop_service

for round in $(seq 1 "$ROUNDS"); do
  for kind in "${kinds[@]}"; do
    say "== round $round: $kind"
    start_service "$kind"
    ghz_get "warm-$kind-$round" -n 5000
    before=$(cpu_seconds "$service_pid")
    ghz_get "$kind-$round" -n "$REQUESTS"
    after=$(cpu_seconds "$service_pid")
    echo "$before $after" >"$work/$kind-$round.cpu"
    stop_service
    python3 - "$work/$kind-$round" "$REQUESTS" <<'PY'
import json, sys
name, requests = sys.argv[1], int(sys.argv[2])
before, after = map(float, open(f"{name}.cpu").read().split())
print(f"   {json.load(open(f'{name}.json'))['rps']:,.0f} req/s, "
      f"{(after - before) / requests * 1e6:,.0f} µs CPU per call")
PY
  done
done

python3 - "$work" "$ROUNDS" "$REQUESTS" "${kinds[@]}" <<'PY'
import json, sys
work, rounds, requests, kinds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
def run(name):
    r = json.load(open(f"{work}/{name}.json"))
    errors = sum(v for k, v in r.get("statusCodeDistribution", {}).items() if k != "OK")
    before, after = map(float, open(f"{work}/{name}.cpu").read().split())
    return r["rps"], (after - before) / requests * 1e6, errors
header = " | ".join(f"{k} req/s | {k} CPU µs/call" for k in kinds)
ratios = " | ".join(f"{k}/{kinds[0]} req/s | {k}/{kinds[0]} CPU" for k in kinds[1:])
print(f"| round | {header} | {ratios} | errors |")
print("|---:" * (2 + 2 * len(kinds) + 2 * (len(kinds) - 1)) + "|")
for i in range(1, rounds + 1):
    runs = [run(f"{k}-{i}") for k in kinds]
    cells = " | ".join(f"{rps:,.0f} | {cpu:,.0f}" for rps, cpu, _ in runs)
    first = runs[0]
    ratio = " | ".join(f"{rps / first[0]:.2f} | {cpu / first[1]:.2f}" for rps, cpu, _ in runs[1:])
    print(f"| {i} | {cells} | {ratio} | {sum(e for _, _, e in runs)} |")
PY
