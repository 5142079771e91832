#!/usr/bin/env bash
# Checks the deployment files without a container engine or a Kubernetes cluster:
#
#   image    every path the Dockerfile copies exists after `./mvnw package` and passes
#            .dockerignore; then its runtime stage is replayed on this machine: the AOT training
#            run as uid 65534 (no user namespaces), and the service started as uid 65534 with a
#            read-only root file system and only /tmp writable (a private mount namespace),
#            required to use the AOT cache (-XX:AOTMode=on) and to answer a gRPC Create
#   compose  `docker compose config` for every profile
#   chart    `helm lint`, `helm template` with the default values and ci/*.yaml, the chart's
#            refusals, the jar started with the environment the chart renders (over TLS with a
#            certificate made by openssl), and the rendered manifests against the Kubernetes JSON
#            schemas (kubeconform, schemas from the PyPI package kubernetes-validate)
#
#   deploy/check.sh              # all three
#   deploy/check.sh chart        # some
#
# Tools, where missing the part is skipped and says so (STRICT=1 turns a skip into a failure):
#   helm         go install helm.sh/helm/v3/cmd/helm@v3.22.0
#   kubeconform  go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0
#   schemas      python3 -m venv /tmp/kv && /tmp/kv/bin/pip install kubernetes-validate==1.37.0
#                (or KUBERNETES_VALIDATE_PYTHON=/path/to/python with it installed)
#   compose      the docker CLI with its compose plugin
#   image        root, unshare, setpriv, a JDK 25 (JAVA_HOME), grpcurl; the jar from ./mvnw package
#   environment  the jar, curl, openssl, python3 with PyYAML
set -euo pipefail
cd "$(dirname "$0")/.."

PARTS=${*:-image compose chart}
STRICT=${STRICT:-0}
KUBE_VERSION=${KUBE_VERSION:-1.33.0}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$HOME/go/bin:$PATH"
work=$(mktemp -d /tmp/vfps-check.XXXXXX)
failures=0
skips=0
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

pass() { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*"; failures=$((failures + 1)); }
skip() { printf '  skip  %s\n' "$*"; skips=$((skips + 1)); }
have() { command -v "$1" >/dev/null 2>&1; }

check_image() {
  echo "== image (Dockerfile, .dockerignore)"
  # the build stage's sources: every COPY without --from, each of its files admitted by
  # .dockerignore (last matching pattern wins, a pattern also matches everything below it)
  local source
  while read -r source; do
    if [ ! -e "$source" ]; then
      fail "COPY $source: not in the repository"
    elif excluded=$(git ls-files -- "$source" | python3 -c '
import fnmatch, sys
patterns = [l.strip() for l in open(".dockerignore") if l.strip() and not l.startswith("#")]
def admitted(path):
    keep = True
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        parts = path.split("/")
        if any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts) + 1)):
            keep = negate
    return keep
print(sum(1 for line in sys.stdin if not admitted(line.strip())))') && [ "$excluded" = 0 ]; then
      pass "COPY $source ($(git ls-files -- "$source" | wc -l) files, all in the build context)"
    else
      fail "COPY $source: $excluded files excluded from the build context by .dockerignore"
    fi
  done < <(awk '/^COPY / && !/--from/ { for (i = 2; i < NF; i++) print $i }' Dockerfile)
  if [ -f target/vfps.jar ]; then
    pass "COPY --from=build /src/target/vfps.jar (target/vfps.jar after ./mvnw package)"
  else
    fail "target/vfps.jar missing: run ./mvnw -B package -DskipTests first"
    return
  fi

  if [ "$(id -u)" != 0 ] || ! have unshare || ! have setpriv || ! have grpcurl; then
    skip "runtime stage replay (needs root, unshare, setpriv and grpcurl)"
    return
  fi
  local opts training home=$work/opt-vfps
  opts=$(sed -n 's/^ENV JAVA_OPTS="\([^"]*\)".*/\1/p' Dockerfile)
  # what the Dockerfile's training run adds to JAVA_OPTS (its heap)
  training=$(sed -n 's/.*java \$JAVA_OPTS \(.*\) -XX:AOTCacheOutput=.*/\1/p' Dockerfile)
  mkdir -p "$home/bin" "$work/tmp"
  cp -p target/vfps.jar "$home/vfps.jar"
  cp -p bin/vfps "$home/bin/vfps"
  chmod 755 "$work" "$home" "$home/bin"
  chmod 1777 "$work/tmp"
  # /opt/vfps as in the image, in a private mount namespace; $work/tmp stands in for /tmp
  local enter="mount -t tmpfs tmpfs /opt && mkdir /opt/vfps && mount --bind $home /opt/vfps"
  if unshare -m --propagation private sh -c "$enter && mount --bind $work/tmp /tmp && cd /opt/vfps &&
      setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME=/tmp PATH=$JAVA_HOME/bin:/usr/bin:/bin \
        java $opts $training -XX:AOTCacheOutput=/tmp/vfps.aot -Xlog:aot=error -jar /opt/vfps/vfps.jar train &&
      mv /tmp/vfps.aot /opt/vfps/vfps.aot && mv /tmp/embedded-pg /opt/vfps/embedded-pg &&
      chown -R root:root /opt/vfps/vfps.aot /opt/vfps/embedded-pg" >"$work/train.log" 2>&1; then
    pass "AOT training run as uid 65534 ($training): $(($(stat -c %s "$home/vfps.aot") / 1048576)) MiB cache, PostgreSQL unpacked in embedded-pg"
  else
    fail "AOT training run as uid 65534 (log: $work/train.log)"
    tail -5 "$work/train.log"
    return
  fi
  # the service as the image starts it: read-only root, tmpfs /tmp, uid 65534, the embedded
  # database (no connection string) under /tmp, and the cache required
  local port=${CHECK_GRPC_PORT:-38481}
  unshare -m --propagation private sh -c "$enter && mount -o remount,bind,ro /opt/vfps &&
      mount -o remount,bind,ro / && mount -t tmpfs -o mode=1777 tmpfs /tmp && cd /opt/vfps &&
      exec setpriv --reuid=65534 --regid=65534 --clear-groups env -i PATH=/usr/bin:/bin \
        JAVA_HOME=$JAVA_HOME VFPS_HOME=/opt/vfps Database__Embedded__DataDirectory=/tmp/vfps/postgres \
        'JAVA_OPTS=$opts -XX:AOTMode=on' Grpc__Port=$port Http__Port=$((port - 1)) MetricsPort=0 \
        /opt/vfps/bin/vfps serve" >"$work/serve.log" 2>&1 &
  pid=$!
  local up=no
  for _ in $(seq 1 150); do
    if grpcurl -plaintext "127.0.0.1:$port" grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING; then
      up=yes
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if [ "$up" = yes ] &&
    grpcurl -plaintext -d '{"name": "check", "pseudonymLength": 16}' "127.0.0.1:$port" \
      vfps.api.v1.NamespaceService/Create >/dev/null &&
    grpcurl -plaintext -d '{"namespace": "check", "originalValue": "x"}' "127.0.0.1:$port" \
      vfps.api.v1.PseudonymService/Create | grep -q pseudonymValue; then
    pass "serves as uid 65534 on a read-only root with only /tmp writable, AOT cache in use: $(grep -o 'started in [0-9]* ms' "$work/serve.log")"
  else
    fail "start on a read-only root (log: $work/serve.log)"
    grep -v '^WARNING' "$work/serve.log" | tail -5
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

check_compose() {
  echo "== compose.yaml"
  if ! docker compose version >/dev/null 2>&1; then
    skip "docker compose config (no docker compose)"
    return
  fi
  local profiles
  for profiles in "" "--profile test" "--profile test --profile jaeger" "--profile cluster" "--profile tls"; do
    # shellcheck disable=SC2086
    if docker compose $profiles config -q 2>"$work/compose.err"; then
      pass "docker compose ${profiles:-(no profile)} config: $(docker compose $profiles config --services | tr '\n' ' ')"
    else
      fail "docker compose $profiles config: $(cat "$work/compose.err")"
    fi
  done
}

schemas() { # prints a kubeconform schema location, or nothing
  local python=${KUBERNETES_VALIDATE_PYTHON:-}
  if [ -z "$python" ]; then
    for candidate in /tmp/kv/bin/python /tmp/kv-venv/bin/python python3; do
      if "$candidate" -c 'import kubernetes_validate' 2>/dev/null; then python=$candidate; break; fi
    done
  fi
  [ -n "$python" ] || return 0
  local source target=$work/schemas
  source=$("$python" -c 'import kubernetes_validate, os; print(os.path.dirname(kubernetes_validate.__file__))')/kubernetes-json-schema/v$KUBE_VERSION-local-strict
  [ -d "$source" ] || return 0
  mkdir -p "$target"
  # the package's schemas refer to their definitions by an absolute path of its own resolver;
  # point those references at the local file
  for file in "$source"/*.json; do
    sed "s#\"/api/_definitions.json\##\"file://$target/_definitions.json\##g" "$file" >"$target/${file##*/}"
  done
  echo "$target/{{ .ResourceKind }}{{ .KindSuffix }}.json"
}

check_chart() {
  echo "== chart (deploy/)"
  if ! have helm; then
    skip "helm lint and template (no helm)"
    return
  fi
  local values rendered name
  for values in "" deploy/ci/*.yaml; do
    local args=(--kube-version "$KUBE_VERSION" --namespace vfps)
    if [ -z "$values" ]; then
      name=default
      args+=(--set database.existingSecret=vfps-database)
    else
      name=$(basename "$values" .yaml)
      args+=(-f "$values")
    fi
    if helm lint --strict deploy "${args[@]}" >"$work/lint-$name.log" 2>&1; then
      pass "helm lint --strict ($name)"
    else
      fail "helm lint ($name): $(grep -E 'ERROR|WARNING' "$work/lint-$name.log" | head -3)"
    fi
    rendered=$work/$name.yaml
    if helm template vfps deploy "${args[@]}" >"$rendered" 2>"$work/template.err"; then
      pass "helm template ($name): $(grep -c '^kind:' "$rendered") resources ($(grep '^kind:' "$rendered" | cut -d' ' -f2 | sort | tr '\n' ' '))"
    else
      fail "helm template ($name): $(cat "$work/template.err")"
    fi
  done

  local refusal
  while IFS='|' read -r refusal expected; do
    # shellcheck disable=SC2086
    if helm template vfps deploy --kube-version "$KUBE_VERSION" $refusal >/dev/null 2>"$work/refusal.err"; then
      fail "not refused: $refusal"
    elif grep -q "$expected" "$work/refusal.err"; then
      pass "refuses $refusal"
    else
      fail "refused for another reason: $refusal: $(cat "$work/refusal.err")"
    fi
  done <<'EOF'
--set replicaCount=2|needs a database
--set database.existingSecret=s --set config.Pseudonymization.Caching.Pseudonyms.IsEnabled=true|need cluster.enabled=true
--set database.existingSecret=s --set config.Cluster.IsEnabled=true|set it through database, cluster or ports
--set database.existingSecret=s --set config.Grpc.Port=9000|set it through ports
--set database.existingSecret=s --set cluster.enabled=true --set cluster.port=5702|keep cluster.port at 5701
--set database.existingSecret=s --set serviceMonitor.enabled=true --set ports.metrics=0|ports.metrics must not be 0
--set database.existingSecret=s --set tls.enabled=true|tls.enabled needs a certificate
--set database.existingSecret=s --set tls.enabled=true --set tls.certManager.enabled=true|needs tls.certManager.issuerRef.name
--set database.existingSecret=s --set config.Kestrel.Certificates.Default.Path=/tls.crt|set TLS through tls
--set database.existingSecret=s --set config.Authorization.ClientSecret=x|set it through authorization.clientSecret
EOF

  check_chart_services "$work/cluster-values.yaml" "$work/default.yaml"
  check_chart_environment "$work/full-values.yaml"

  if ! have kubeconform; then
    skip "manifests against the Kubernetes schemas (no kubeconform)"
    return
  fi
  local location
  location=$(schemas)
  if [ -z "$location" ]; then
    skip "manifests against the Kubernetes schemas (no kubernetes-validate package for v$KUBE_VERSION)"
    return
  fi
  # ServiceMonitor (prometheus-operator) and Certificate (cert-manager) are CRDs: no schema in the
  # package
  if kubeconform -strict -summary -skip ServiceMonitor,Certificate -schema-location "$location" "$work"/*.yaml \
    >"$work/kubeconform.log" 2>&1; then
    pass "kubeconform -strict, Kubernetes $KUBE_VERSION: $(tail -1 "$work/kubeconform.log")"
  else
    fail "kubeconform: $(grep -v '^Summary' "$work/kubeconform.log" | head -5)"
  fi
}

# The clients' headless Service lists the ready pods only; the cluster's discovery resolves its own,
# which lists every pod and exists only with cluster.enabled.
check_chart_services() { # rendered manifests: clustered, not clustered
  if ! python3 -c 'import yaml' 2>/dev/null; then
    skip "the Services for clients and for the cluster (needs python3 with PyYAML)"
    return
  fi
  if python3 - "$1" "$2" <<'PY'
import sys, yaml
def docs(path):
    return [d for d in yaml.safe_load_all(open(path)) if d]
clustered, alone = docs(sys.argv[1]), docs(sys.argv[2])
services = {d["metadata"]["name"]: d["spec"] for d in clustered if d["kind"] == "Service"}
env = {v["name"]: v.get("value") for d in clustered if d["kind"] == "Deployment"
       for v in d["spec"]["template"]["spec"]["containers"][0]["env"]}
headless, members = services["vfps-headless"], services["vfps-members"]
assert not headless.get("publishNotReadyAddresses", False), "vfps-headless lists pods that are not ready"
assert {p["name"] for p in headless["ports"]} >= {"grpc", "http"}, "vfps-headless lacks the client ports"
assert members["publishNotReadyAddresses"] is True, "vfps-members omits pods that are not ready"
assert {p["name"] for p in members["ports"]} == {"cluster", "event-bus"}, "vfps-members has other ports"
assert env["Cluster__Kubernetes__ServiceDns"].startswith("vfps-members."), env["Cluster__Kubernetes__ServiceDns"]
assert not any(d["kind"] == "Service" and d["metadata"]["name"] == "vfps-members" for d in alone), \
    "vfps-members without cluster.enabled"
PY
  then
    pass "vfps-headless lists ready pods only; the cluster finds its members through vfps-members (every pod, cluster ports only, only when clustered)"
  else
    fail "the Services for clients and for the cluster"
  fi
}

# Starts the jar with the environment the chart gives its pods (ports shifted, the embedded
# database instead of the Secret's, the pod IP as 127.0.0.1, the mounted TLS Secret replaced by a
# certificate made here, other Secrets' values by stand-ins): the service must accept every value, create the initial namespaces of
# ci/full-values.yaml, and answer /readyz over HTTPS.
check_chart_environment() { # rendered manifests
  if [ ! -f target/vfps.jar ] || ! have curl || ! have openssl || ! python3 -c 'import yaml' 2>/dev/null; then
    skip "the service accepts the chart's environment (needs the jar, curl, openssl, python3 with PyYAML)"
    return
  fi
  local tls=$work/tls
  mkdir -p "$tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$tls/tls.key" -out "$tls/tls.crt" 2>/dev/null
  local port=${CHECK_GRPC_PORT:-38481} env=$work/pod.env
  python3 - "$1" >"$env" <<'PY'
import sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    if doc and doc["kind"] == "Deployment":
        for var in doc["spec"]["template"]["spec"]["containers"][0]["env"]:
            if "value" in var and not var["name"].startswith("PG"):
                print(f"{var['name']}={var['value']}")
            # a Secret's value other than the database's (which the embedded one replaces): a
            # stand-in, as the kubelet would fill it in (Authorization__ClientSecret)
            elif "secretKeyRef" in var.get("valueFrom", {}) and not var["name"].startswith(
                    ("PG", "ConnectionStrings__")):
                ref = var["valueFrom"]["secretKeyRef"]
                print(f"{var['name']}=check-{ref['name']}-{ref['key']}")
PY
  (
    while IFS='=' read -r name value; do export "$name=$value"; done <"$env"
    export Grpc__Port=$port Http__Port=$((port - 1)) MetricsPort=0 Cluster__Host=127.0.0.1 \
      Cluster__Port=$((port + 4)) Cluster__EventBus__Port=$((port + 5)) Tracing__IsEnabled=false \
      Database__Embedded__DataDirectory=$work/pod-postgres
    if [ -n "${Kestrel__Certificates__Default__Path:-}" ]; then
      export Kestrel__Certificates__Default__Path=$tls/tls.crt Kestrel__Certificates__Default__KeyPath=$tls/tls.key
    fi
    exec bin/vfps
  ) >"$work/pod.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do
    grep -q "started in" "$work/pod.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  # ci/full-values.yaml names an OIDC provider that cannot be reached from here, so /readyz is 503
  # with its authorization check DOWN; every other check must be UP
  if grep -q "Initial namespace 'study-b' created" "$work/pod.log" && grep -q "started in" "$work/pod.log" &&
    grep -q "TLS on for gRPC and HTTP" "$work/pod.log" &&
    curl -sS --cacert "$tls/tls.crt" "https://127.0.0.1:$((port - 1))/readyz" | python3 -c '
import json, sys
checks = {c["id"]: c["status"] for c in json.load(sys.stdin)["checks"]}
sys.exit(0 if "authorization" in checks and all(s == "UP" for i, s in checks.items() if i != "authorization") else 1)'; then
    pass "the service accepts the environment of ci/full-values.yaml ($(wc -l <"$env") variables, initial namespaces created, /readyz over HTTPS: all UP but the unreachable OIDC provider)"
  else
    fail "the service with the environment of ci/full-values.yaml (log: $work/pod.log)"
    grep -v '^WARNING' "$work/pod.log" | tail -5
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

for part in $PARTS; do
  "check_$part"
done
echo
if [ "$failures" -gt 0 ] || { [ "$STRICT" = 1 ] && [ "$skips" -gt 0 ]; }; then
  echo "deploy check: $failures failed, $skips skipped"
  exit 1
fi
echo "deploy check: passed ($skips skipped)"
