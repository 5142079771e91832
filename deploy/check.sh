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
#            refusals, the VOPRF server's and client's wiring (labels, Secrets, mounts), the jar
#            started with the environment the chart renders (over TLS with a certificate made by
#            openssl; the VOPRF server too, where the jar has it), and the rendered manifests
#            against the Kubernetes JSON schemas (kubeconform, schemas from the PyPI package
#            kubernetes-validate)
#
#   deploy/check.sh              # all three
#   deploy/check.sh chart        # some
#
# Tools, where missing the part is skipped and says so (STRICT=1 turns a skip into a failure):
#   helm         go install helm.sh/helm/v3/cmd/helm@v3.21.4 (as deploy/release.sh)
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

# pod_database DIRECTORY: in the subshell of a started service, the embedded database in
# DIRECTORY where a pod has its PostgreSQL, with a larger heap than the pods' profile: the embedded
# database and S3 store (development parts a pod never runs) do not fit in its 32 MiB
pod_database() {
  export Database__Embedded__DataDirectory=$1 JAVA_OPTS="${JAVA_OPTS:-} -Xmx128m"
}

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
  # what the Dockerfile's training run adds to JAVA_OPTS (its heap, and the Unsafe setting that
  # bin/vfps gives too), from its two lines
  training=$(sed -n '/java \$JAVA_OPTS/{N;s/.*java \$JAVA_OPTS \(.*\) \\\n *-XX:AOTCacheOutput=.*/\1/p;}' Dockerfile)
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
  for profiles in "" "--profile test" "--profile test --profile jaeger" "--profile cluster" "--profile tls" "--profile voprf"; do
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
--set database.existingSecret=s --set config.Voprf.Address=https://v:8081|set VOPRF through voprf.client
--set database.existingSecret=s --set voprf.client.config.Address=https://v:8081|set it through voprf.client instead
--set database.existingSecret=s --set voprf.server.config.Key.Source=Ephemeral|set it through voprf.server.key
--set database.existingSecret=s --set voprf.server.enabled=true|voprf.server.enabled needs a key
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA== --set voprf.server.key.base64=a2V5|set only one of existingSecret, base64 and seed
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.existingSecret=k --set voprf.server.key.existingSecretHolds=file|existingSecretHolds: key
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA== --set voprf.server.key.keyId=v.1|voprf.server.key.keyId: 1 to 64
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA==|voprf.server.tls.secretName: the hardened VOPRF server needs TLS
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA== --set voprf.server.tls.secretName=t|AllowedThumbprints: the hardened VOPRF server takes client certificates
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA== --set voprf.server.config.Hardening.IsEnabled=false|is for development only
--set database.existingSecret=s --set voprf.server.enabled=true --set voprf.server.key.seed=c2VlZA== --set voprf.server.tls.secretName=t --set voprf.server.config.Authentication.Mode=Jwt --set voprf.client.config.MaxBatchSize=256|more than the server's
--set database.existingSecret=s --set voprf.client.address=https://v:8081|voprf.client.publicKey: the VOPRF server's public key is pinned
--set database.existingSecret=s --set voprf.client.address=https://v:8081 --set voprf.client.publicKey=k --set voprf.client.bearerToken.audience=a --set voprf.client.bearerToken.existingSecret=t|set one of audience
--set database.existingSecret=s --set voprf.client.address=http://v:8081 --set voprf.client.publicKey=k --set voprf.client.tls.secretName=c|need an https:// address
--set database.existingSecret=s --set config.Sealing.KeyFile=/keys.json|set it through sealing.existingSecret
--set database.existingSecret=s --set config.Audit.SigningKeyFile=/key.pem|set it through audit.signingKey.existingSecret
EOF

  check_chart_services "$work/cluster-values.yaml" "$work/default.yaml"
  check_chart_voprf "$work"
  check_chart_key_files "$work/key-files-values.yaml" "$work/default.yaml"
  check_chart_environment "$work/full-values.yaml"
  check_chart_voprf_environment "$work/voprf-values.yaml"

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
       for c in d["spec"]["template"]["spec"]["containers"] if c["name"] == "vfps" for v in c["env"]}
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

# The VOPRF parts: the server's pods apart from vfps's (no vfps Service, PodDisruptionBudget or
# spread constraint takes them; their own Service and NetworkPolicy take only them), its key from
# the Secret as a file or a seed (never a literal in the environment), every path vfps and the
# server are given inside a volume they mount, tcpSocket probes while TLS is on, and nothing of
# VOPRF in a release that does not ask for it.
check_chart_voprf() { # directory of rendered manifests
  if ! python3 -c 'import yaml' 2>/dev/null; then
    skip "the VOPRF server's and client's wiring (needs python3 with PyYAML)"
    return
  fi
  if python3 - "$1" <<'PY'
import os, sys, yaml
work = sys.argv[1]
def docs(name):
    return [d for d in yaml.safe_load_all(open(os.path.join(work, name + ".yaml"))) if d]
def one(manifests, kind, name):
    found = [d for d in manifests if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind} {name}: {len(found)} rendered"
    return found[0]
def selects(selector, labels):
    return all(labels.get(k) == v for k, v in selector.items())
def container(deployment):
    return deployment["spec"]["template"]["spec"]["containers"][0]
def env(deployment):
    return {v["name"]: v for v in container(deployment)["env"]}
def mounted(deployment, path):
    """the volume a file path lies in"""
    for mount in container(deployment)["volumeMounts"]:
        if path.startswith(mount["mountPath"].rstrip("/") + "/"):
            return next(v for v in deployment["spec"]["template"]["spec"]["volumes"] if v["name"] == mount["name"])
    raise AssertionError(f"{path} lies in no volume of {deployment['metadata']['name']}")

default = docs("default")
assert not any("voprf" in d["metadata"]["name"] for d in default), "VOPRF resources without voprf.server.enabled"
assert not any(k.startswith("Voprf") for k in env(one(default, "Deployment", "vfps"))), "Voprf__* without a server"

for name in ("voprf-values", "voprf-existing-secret-values"):
    manifests = docs(name)
    vfps, server = one(manifests, "Deployment", "vfps"), one(manifests, "Deployment", "vfps-voprf")
    vfps_pods = vfps["spec"]["template"]["metadata"]["labels"]
    server_pods = server["spec"]["template"]["metadata"]["labels"]
    assert selects(server["spec"]["selector"]["matchLabels"], server_pods)
    for d in manifests:
        selector = d["spec"].get("selector") if d["kind"] in ("Service", "PodDisruptionBudget") else None
        if selector is not None:
            selector = selector.get("matchLabels", selector)
            if d["metadata"]["name"] == "vfps-voprf":
                assert selects(selector, server_pods) and not selects(selector, vfps_pods), f"{d['kind']} vfps-voprf"
            else:
                assert not selects(selector, server_pods), f"{d['kind']} {d['metadata']['name']} takes the VOPRF server's pods"
    for constraint in vfps["spec"]["template"]["spec"].get("topologySpreadConstraints", []):
        assert not selects(constraint["labelSelector"]["matchLabels"], server_pods), "vfps's spread takes the server's pods"
    assert container(server)["args"] == ["voprf-server"]
    assert container(server)["securityContext"] == container(vfps)["securityContext"]
    assert server["spec"]["template"]["spec"]["securityContext"] == vfps["spec"]["template"]["spec"]["securityContext"]
    assert server["spec"]["template"]["spec"]["automountServiceAccountToken"] is False
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert "tcpSocket" in container(server)[probe], f"{probe} of the TLS server is no tcpSocket"
    server_env, client_env = env(server), env(vfps)
    for key in ("Kestrel__Certificates__Default__Path", "Kestrel__Certificates__Default__KeyPath"):
        assert mounted(server, server_env[key]["value"])["secret"]["secretName"] == "vfps-voprf-tls", key
    secrets = {d["metadata"]["name"]: d for d in manifests if d["kind"] == "Secret"}
    source = server_env["VoprfServer__Key__Source"]["value"]
    if source == "Seed":
        ref = server_env["VoprfServer__Key__Seed"]["valueFrom"]["secretKeyRef"]
        assert ref["key"] in secrets[ref["name"]]["stringData"], "the seed's Secret is not rendered"
    else:
        assert source == "File" and "VoprfServer__Key__Seed" not in server_env
        volume = mounted(server, server_env["VoprfServer__Key__FilePath"]["value"])["secret"]
        item = volume["items"][0]
        assert server_env["VoprfServer__Key__FilePath"]["value"].endswith("/" + item["path"])
        if volume["secretName"] not in secrets:
            assert name == "voprf-existing-secret-values" and volume["secretName"] == "vfps-voprf-key"
    literals = {v.get("value") for v in server_env.values()}
    for secret in secrets.values():
        assert not literals & set(secret.get("stringData", {}).values()), "a key or seed in the environment"
    address = client_env["Voprf__Address"]["value"]
    assert address == "https://vfps-voprf.vfps.svc:8081", address
    assert client_env["Voprf__ExpectedKeyId"]["value"] == server_env["VoprfServer__Key__KeyId"]["value"]
    for key, var in client_env.items():
        if key.startswith("Voprf__") and key.endswith("Path"):
            mounted(vfps, var["value"])
    if name == "voprf-values":
        policy = one(manifests, "NetworkPolicy", "vfps-voprf")
        assert policy["spec"]["podSelector"]["matchLabels"] == server["spec"]["selector"]["matchLabels"]
        assert selects(policy["spec"]["ingress"][0]["from"][0]["podSelector"]["matchLabels"], vfps_pods)
    else:
        token = mounted(vfps, client_env["Voprf__BearerTokenPath"]["value"])
        assert token["projected"]["sources"][0]["serviceAccountToken"]["audience"] == "vfps-voprf"

external = docs("voprf-external-values")
assert not any("voprf" in d["metadata"]["name"] for d in external), "server resources for an external server"
vfps = one(external, "Deployment", "vfps")
client_env = env(vfps)
assert client_env["Voprf__Address"]["value"] == "https://voprf.pseudonyms.svc:8081"
assert client_env["Voprf__ExpectedKeyId"]["value"] == "v7"
assert mounted(vfps, client_env["Voprf__BearerTokenPath"]["value"])["secret"]["secretName"] == "vfps-voprf-token"
PY
  then
    pass "the VOPRF server's pods are apart from vfps's, its key comes from the Secret (a file or a seed), every path lies in a mounted volume, vfps calls the release's server (or the one it names)"
  else
    fail "the VOPRF server's and client's wiring"
  fi
}

# Starts `vfps voprf-server` with the environment the chart gives the server's pods in
# ci/voprf-values.yaml (the seed of the Secret the chart makes, a certificate made here in place of
# the mounted TLS Secret, the thumbprint of a client certificate made here in place of the allowed
# one): it must start, answer its health over TLS without credentials, answer GetPublicKey with
# the client certificate, and refuse it without.
check_chart_voprf_environment() { # rendered manifests
  if [ ! -f target/vfps.jar ] || ! have openssl || ! have grpcurl || ! python3 -c 'import yaml' 2>/dev/null; then
    skip "the VOPRF server accepts the chart's environment (needs the jar, openssl, grpcurl, python3 with PyYAML)"
    return
  fi
  if ! python3 -c 'import sys, zipfile; sys.exit(b"voprf-server" not in zipfile.ZipFile(sys.argv[1]).read("org/vfps/Main.class"))' target/vfps.jar 2>/dev/null; then
    skip "the VOPRF server accepts the chart's environment (target/vfps.jar has no voprf-server)"
    return
  fi
  local tls=$work/voprf-tls port=${CHECK_VOPRF_PORT:-38491} env=$work/voprf-server.env thumbprint
  mkdir -p "$tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$tls/tls.key" -out "$tls/tls.crt" 2>/dev/null
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=vfps-client \
    -addext extendedKeyUsage=clientAuth -keyout "$tls/client.key" -out "$tls/client.crt" 2>/dev/null
  thumbprint=$(openssl x509 -in "$tls/client.crt" -noout -fingerprint -sha256 | cut -d= -f2 | tr -d :)
  python3 - "$1" >"$env" <<'PY'
import sys, yaml
manifests = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
secrets = {d["metadata"]["name"]: d.get("stringData", {}) for d in manifests if d["kind"] == "Secret"}
for doc in manifests:
    if doc["kind"] == "Deployment" and doc["metadata"]["name"] == "vfps-voprf":
        for var in doc["spec"]["template"]["spec"]["containers"][0]["env"]:
            if "value" in var:
                print(f"{var['name']}={var['value']}")
            elif "secretKeyRef" in var.get("valueFrom", {}):
                ref = var["valueFrom"]["secretKeyRef"]
                print(f"{var['name']}={secrets[ref['name']][ref['key']]}")
PY
  (
    while IFS='=' read -r name value; do export "$name=$value"; done <"$env"
    export Grpc__Port=$port Kestrel__Certificates__Default__Path=$tls/tls.crt \
      Kestrel__Certificates__Default__KeyPath=$tls/tls.key \
      VoprfServer__Authentication__ClientCertificate__AllowedThumbprints__0=$thumbprint
    exec bin/vfps voprf-server
  ) >"$work/voprf-server.log" 2>&1 &
  pid=$!
  # reflection is off on the hardened server: grpcurl reads the protos, the health service's from
  # its well-known definition
  mkdir -p "$work/proto/grpc/health/v1"
  cat >"$work/proto/grpc/health/v1/health.proto" <<'PROTO'
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
PROTO
  local up=no proto=(-import-path src/main/proto -proto vfps/voprf/v1/voprf.proto)
  for _ in $(seq 1 150); do
    if grpcurl -cacert "$tls/tls.crt" -import-path "$work/proto" -proto grpc/health/v1/health.proto \
      "127.0.0.1:$port" grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING; then
      up=yes
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  local key=""
  if [ "$up" = yes ] &&
    key=$(grpcurl -cacert "$tls/tls.crt" -cert "$tls/client.crt" -key "$tls/client.key" "${proto[@]}" \
      "127.0.0.1:$port" vfps.voprf.v1.VoprfService/GetPublicKey 2>&1 |
      python3 -c 'import json, sys; answer = json.load(sys.stdin); assert answer["keyId"] == "v2026"; print(answer["publicKey"])') &&
    ! grpcurl -cacert "$tls/tls.crt" "${proto[@]}" "127.0.0.1:$port" \
      vfps.voprf.v1.VoprfService/GetPublicKey >/dev/null 2>&1; then
    pass "the VOPRF server accepts the environment of ci/voprf-values.yaml ($(wc -l <"$env") variables): health over TLS, GetPublicKey with the allowed client certificate only"
  else
    fail "the VOPRF server with the environment of ci/voprf-values.yaml (log: $work/voprf-server.log)"
    grep -v '^WARNING' "$work/voprf-server.log" | tail -5
    key=""
  fi
  # vfps with the client environment of the same file (the embedded database, the key just read
  # pinned, the certificates made here in place of the mounted Secrets): a VOPRF namespace of the
  # file's Hex and Length 32 takes pseudonymLength 64, and its pseudonyms carry the key id
  if [ -n "$key" ]; then
    local client=$work/voprf-client.env vfps_pid vport=$((port + 10))
    python3 - "$1" >"$client" <<'PY'
import sys, yaml
for doc in yaml.safe_load_all(open(sys.argv[1])):
    if doc and doc["kind"] == "Deployment" and doc["metadata"]["name"] == "vfps":
        for var in doc["spec"]["template"]["spec"]["containers"][0]["env"]:
            if "value" in var and not var["name"].startswith("PG"):
                print(f"{var['name']}={var['value']}")
PY
    (
      while IFS='=' read -r name value; do export "$name=$value"; done <"$client"
      pod_database "$work/voprf-postgres"
      export Grpc__Port=$vport Http__Port=$((vport - 1)) MetricsPort=0 S3__Embedded__Port=0 \
        Voprf__Address=https://localhost:$port \
        Voprf__PublicKey=$key Voprf__Tls__CertificatePath=$tls/client.crt \
        Voprf__Tls__KeyPath=$tls/client.key Voprf__Tls__TrustedCertificatesPath=$tls/tls.crt
      exec bin/vfps
    ) >"$work/voprf-vfps.log" 2>&1 &
    vfps_pid=$!
    for _ in $(seq 1 200); do
      grep -q "started in" "$work/voprf-vfps.log" && break
      kill -0 "$vfps_pid" 2>/dev/null || break
      sleep 0.2
    done
    if grpcurl -plaintext -d '{"name": "voprf-check", "pseudonymGenerationMethod": "PSEUDONYM_GENERATION_METHOD_VOPRF", "pseudonymLength": 64}' \
        "127.0.0.1:$vport" vfps.api.v1.NamespaceService/Create >/dev/null 2>&1 &&
      grpcurl -plaintext -d '{"namespace": "voprf-check", "originalValue": "patient-1"}' "127.0.0.1:$vport" \
        vfps.api.v1.PseudonymService/Create 2>&1 | grep -Eq '"pseudonymValue": "v2026\.[0-9a-f]{64}"'; then
      pass "vfps accepts the VOPRF client environment of ci/voprf-values.yaml: over TLS with its client certificate, the key pinned, a VOPRF pseudonym v2026.<64 hex digits>"
    else
      fail "vfps with the VOPRF client environment of ci/voprf-values.yaml (log: $work/voprf-vfps.log)"
      grep -v '^WARNING' "$work/voprf-vfps.log" | tail -5
    fi
    kill "$vfps_pid" 2>/dev/null || true
    wait "$vfps_pid" 2>/dev/null || true
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

# The key files from Secrets (values.yaml's sealing and audit.signingKey): vfps reads owner-only
# copies that an init container makes in an in-memory emptyDir, the Secrets' volumes are mounted
# into the init container only, and nothing of it renders without them. Then the init container's
# script runs here as the pods' user on files of the Secret volume's mode: vfps refuses the
# Secret's file and takes the copy (`vfps sealing rotate --out` reads the key file, offline).
check_chart_key_files() { # rendered manifests: with key files, without
  if ! python3 -c 'import yaml' 2>/dev/null; then
    skip "the key files' init container (needs python3 with PyYAML)"
    return
  fi
  if ! python3 - "$1" "$2" "$work/key-files.sh" <<'PY'
import sys, yaml
def deployment(path, name):
    return next(d for d in yaml.safe_load_all(open(path))
                if d and d["kind"] == "Deployment" and d["metadata"]["name"] == name)
def key_files(name, settings, secrets):
    """the server's key files: read from owner-only copies in memory, which its init container
    makes from the Secrets that only it mounts; returns the init container's script"""
    spec = deployment(sys.argv[1], name)["spec"]["template"]["spec"]
    server = spec["containers"][0]
    volumes = {v["name"]: v for v in spec["volumes"]}
    env = {v["name"]: v.get("value") for v in server["env"]}
    (init,) = spec["initContainers"]
    script = init["command"][2]
    assert {k for k in env if k.endswith("KeyFile")} == set(settings), (name, env)
    for setting in settings:
        path = env[setting]
        (mount,) = [m for m in server["volumeMounts"] if path.startswith(m["mountPath"] + "/")]
        assert mount["readOnly"] is True, mount
        assert volumes[mount["name"]]["emptyDir"]["medium"] == "Memory", setting
        assert f" {path}\n" in script, f"{name}'s init container does not write {path}"
    assert {n for n, v in volumes.items() if n in ("sealing-key", "audit-signing-key")} == set(secrets)
    assert all("secret" in volumes[n] for n in secrets)
    assert not any(m["name"] in secrets for m in server["volumeMounts"]), f"{name} mounts a key's Secret"
    assert {m["name"] for m in init["volumeMounts"]} == set(secrets) | {"key-files"}
    assert init["securityContext"]["readOnlyRootFilesystem"] is True
    return script

script = key_files("vfps", ["Sealing__KeyFile", "Audit__SigningKeyFile"],
                   ["sealing-key", "audit-signing-key"])
# the VOPRF server signs its audit checkpoints, and seals nothing
key_files("vfps-voprf", ["Audit__SigningKeyFile"], ["audit-signing-key"])
default = deployment(sys.argv[2], "vfps")["spec"]["template"]["spec"]
assert "initContainers" not in default, "an init container without key files"
assert not any(v["name"].endswith("KeyFile") for v in default["containers"][0]["env"]), \
    "a key file setting without its Secret"
open(sys.argv[3], "w").write(script)
PY
  then
    fail "the key files' init container"
    return
  fi
  pass "key files: vfps and the VOPRF server read owner-only copies in memory; only their init containers mount the Secrets"
  if [ "$(id -u)" != 0 ] || ! have setpriv || [ ! -f target/vfps.jar ]; then
    skip "the init container's copy, run here (needs root, setpriv and target/vfps.jar)"
    return
  fi
  # the pod's paths under $work/pod, the Secrets' files as the kubelet gives them (root's, 0444)
  local pod=$work/pod as_pod
  mkdir -p "$pod/secrets/sealing-key" "$pod/secrets/audit-signing-key" "$pod/keys"
  chmod 1777 "$pod/keys"
  "$JAVA_HOME/bin/java" -jar target/vfps.jar sealing new-key --out "$pod/secrets/sealing-key/sealing-keys.json" >/dev/null
  "$JAVA_HOME/bin/java" -jar target/vfps.jar audit new-key --out "$pod/secrets/audit-signing-key/audit-signing-key.pem" >/dev/null 2>&1
  chmod 0444 "$pod"/secrets/*/*
  chmod 0755 "$work" "$pod" "$pod/secrets" "$pod"/secrets/*
  as_pod=(setpriv --reuid=65534 --regid=65534 --clear-groups env -i HOME=/tmp PATH=/usr/bin:/bin)
  if ! "${as_pod[@]}" sh -ec "$(sed "s#/etc/vfps/#$pod/#g" "$work/key-files.sh")" 2>"$work/key-files.err"; then
    fail "the init container's script: $(cat "$work/key-files.err")"
    return
  fi
  local modes
  modes=$(stat -c '%u %a' "$pod/keys/sealing-keys.json" "$pod/keys/audit-signing-key.pem" | sort -u)
  if [ "$modes" != "65534 400" ]; then
    fail "the init container's copies are not the pod user's and owner-only: $modes"
    return
  fi
  local rotate=(sealing rotate --out /tmp/vfps-rotated-keys.json)
  if "${as_pod[@]}" Sealing__KeyFile="$pod/secrets/sealing-key/sealing-keys.json" \
    ConnectionStrings__PostgreSQL=postgresql://nobody@127.0.0.1:1/none \
    "$JAVA_HOME/bin/java" -jar target/vfps.jar "${rotate[@]}" >/dev/null 2>"$work/key-files.err" ||
    ! grep -q Sealing__KeyFile "$work/key-files.err"; then
    fail "vfps did not refuse the Secret's own file (mode 0444): $(cat "$work/key-files.err")"
  elif ! "${as_pod[@]}" Sealing__KeyFile="$pod/keys/sealing-keys.json" \
    ConnectionStrings__PostgreSQL=postgresql://nobody@127.0.0.1:1/none \
    "$JAVA_HOME/bin/java" -jar target/vfps.jar "${rotate[@]}" >/dev/null 2>"$work/key-files.err"; then
    fail "vfps refused the init container's copy: $(cat "$work/key-files.err")"
  else
    pass "the init container's script, run as uid 65534: owner-only copies (0400), which vfps takes where it refuses the Secret's own file"
  fi
  rm -f /tmp/vfps-rotated-keys.json
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
    # vfps's pods only; the VOPRF server's have a check of their own
    if doc and doc["kind"] == "Deployment" and doc["spec"]["template"]["spec"]["containers"][0]["name"] == "vfps":
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
      Cluster__Port=$((port + 4)) Cluster__EventBus__Port=$((port + 5)) Tracing__IsEnabled=false
    pod_database "$work/pod-postgres"
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
