#!/usr/bin/env bash
# What authorization costs: ghz runs gRPC PseudonymService/Create of known values (the fastest
# path, where a per-call check weighs most) against the jar with authorization off, on with a
# bearer token, and on with a Basic client account, in one run, ROUNDS times in turn, and prints
# requests per second of each run and the ratios to "off" of the same round.
#
#   loadtest/authorization.sh                  # 3 rounds of 30,000 requests at concurrency 50
#   ROUNDS=2 REQUESTS=10000 loadtest/authorization.sh
#
# The OIDC provider is a directory served by python3's http.server (discovery and a JWKS); its
# RSA key and the RS256 token are made with openssl. Needs: a local PostgreSQL (as
# loadtest/benchmark.sh), the jar (./mvnw package), ghz and grpcurl, openssl, python3.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

ROUNDS=${ROUNDS:-3}
REQUESTS=${REQUESTS:-30000}
CONCURRENCY=${CONCURRENCY:-50}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
GRPC_PORT=${GRPC_PORT:-48181}
IDP_PORT=${IDP_PORT:-48190}
KNOWN=1000
export PATH="$HOME/go/bin:$PATH"

work=$(mktemp -d /tmp/vfps-auth-bench.XXXXXX)
on_exit 'rm -rf "$work"'
service_pid=""
idp_pid=""
on_exit 'stop_process "$idp_pid"'
on_exit 'stop_process "$service_pid"'
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

say "== the provider: an RSA key, discovery and JWKS on port $IDP_PORT, an RS256 token"
issuer="http://127.0.0.1:$IDP_PORT/realms/bench"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/key.pem" 2>/dev/null
mkdir -p "$work/idp/realms/bench/.well-known"
modulus=$(openssl rsa -in "$work/key.pem" -noout -modulus | cut -d= -f2)
python3 - "$modulus" "$issuer" "$work/idp/realms/bench" <<'PY'
import base64, json, sys
modulus, issuer, root = sys.argv[1:]
n = base64.urlsafe_b64encode(bytes.fromhex(modulus)).rstrip(b"=").decode()
json.dump({"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "bench", "n": n, "e": "AQAB"}]},
          open(f"{root}/certs", "w"))
json.dump({"issuer": issuer, "jwks_uri": f"{issuer}/certs"},
          open(f"{root}/.well-known/openid-configuration", "w"))
PY
(cd "$work/idp" && exec python3 -m http.server "$IDP_PORT" --bind 127.0.0.1) >/dev/null 2>&1 &
# shellcheck disable=SC2034 # stopped by the cleanup registered above
idp_pid=$!
now=$(date +%s)
header=$(printf '{"alg":"RS256","typ":"JWT","kid":"bench"}' | b64url)
payload=$(printf '{"iss":"%s","aud":"vfps","sub":"bench","roles":["bench-write"],"iat":%d,"exp":%d}' \
  "$issuer" "$now" "$((now + 3600))" | b64url)
signature=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$work/key.pem" -binary | b64url)
token="$header.$payload.$signature"
secret="bench-client-secret"
secret_hash=$(printf '%s\n' "$secret" | "$JAVA" -jar target/vfps.jar hash-secret)
basic=$(printf 'bench-client:%s' "$secret" | openssl base64 -A)

say "== database vfps_auth_bench (fresh)"
fresh_database vfps_auth_bench
connection=$ConnectionStrings__PostgreSQL

start_service() { # mode: off | on
  local -a auth=(Authorization__IsEnabled=false)
  if [ "$1" = on ]; then
    auth=(Authorization__IsEnabled=true "Authorization__Authority=$issuer" Authorization__Audience=vfps
      Authorization__RequireHttpsMetadata=false Authorization__AdminRoles__0=bench-admin
      Authorization__NamespaceRules__0__Namespace=bench
      Authorization__NamespaceRules__0__WriteRoles__0=bench-write
      Authorization__Clients__0__Id=bench-client "Authorization__Clients__0__SecretHash=$secret_hash"
      Authorization__Clients__0__Roles__0=bench-write)
  fi
  env "${auth[@]}" ConnectionStrings__PostgreSQL="$connection" Grpc__Port=$GRPC_PORT Http__Port=0 \
    MetricsPort=0 "$JAVA" -jar target/vfps.jar >"$work/vfps-$1.log" 2>&1 &
  service_pid=$!
  wait_for 60 0.5 "" log_has "$work/vfps-$1.log" "started in" || true
  if [ "$1" = on ]; then
    wait_for 30 0.5 "" log_has "$work/vfps-$1.log" "Loaded 1 signing keys" || true
  fi
}
stop_service() { kill "$service_pid"; wait "$service_pid" 2>/dev/null || true; service_pid=""; }

ghz_run() { # name, extra ghz arguments...
  local name=$1; shift
  ghz --insecure --call vfps.api.v1.PseudonymService/Create -c "$CONCURRENCY" \
    -D "$work/known.json" -O json -o "$work/$name.json" "$@" "127.0.0.1:$GRPC_PORT"
}
python3 - "$work/known.json" "$KNOWN" <<'PY'
import json, sys
json.dump([{"namespace": "bench", "originalValue": f"known-{i:04d}"} for i in range(int(sys.argv[2]))],
          open(sys.argv[1], "w"))
PY

start_service off
grpcurl -plaintext -d '{"name": "bench", "pseudonymLength": 32}' "127.0.0.1:$GRPC_PORT" \
  vfps.api.v1.NamespaceService/Create >/dev/null
ghz_run seed -n "$KNOWN"
stop_service

for round in $(seq 1 "$ROUNDS"); do
  say "== round $round: off"
  start_service off
  ghz_run "warm-off-$round" -n 5000
  ghz_run "off-$round" -n "$REQUESTS"
  stop_service
  say "== round $round: on (bearer, then Basic)"
  start_service on
  ghz_run "warm-on-$round" -n 5000 --metadata "{\"authorization\": \"Bearer $token\"}"
  ghz_run "bearer-$round" -n "$REQUESTS" --metadata "{\"authorization\": \"Bearer $token\"}"
  ghz_run "basic-$round" -n "$REQUESTS" --metadata "{\"authorization\": \"Basic $basic\"}"
  stop_service
done

python3 - "$work" "$ROUNDS" <<'PY'
import json, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def run(name):
    r = json.load(open(f"{work}/{name}.json"))
    errors = sum(v for k, v in r.get("statusCodeDistribution", {}).items() if k != "OK")
    return r["rps"], r["latencyDistribution"], errors
print("| round | off req/s | bearer req/s | Basic req/s | bearer/off | Basic/off | errors |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for i in range(1, rounds + 1):
    off, _, e1 = run(f"off-{i}")
    bearer, _, e2 = run(f"bearer-{i}")
    basic, _, e3 = run(f"basic-{i}")
    print(f"| {i} | {off:,.0f} | {bearer:,.0f} | {basic:,.0f} | {bearer/off:.2f} | {basic/off:.2f} | {e1+e2+e3} |")
PY
