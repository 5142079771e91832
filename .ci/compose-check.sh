#!/usr/bin/env bash
# compose for real: `podman-compose -f compose.yaml --profile test up -d` with the images
# deploy/image.sh built (vfps and PostgreSQL from Debian's package), the README's tour against it,
# the limits of the file checked on the running container, then `down`, after which no container,
# pod, network or volume of the project may be left.
# Needs root and the ports 8080 and 8081; deploy/compose.sh installs podman-compose.
# shellcheck disable=SC2016 # on_exit's commands are evaluated at exit, in single quotes
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

compose() { deploy/compose.sh --profile test "$@"; }
leftovers() {
  {
    podman ps -a --filter label=io.podman.compose.project=vfps --format '{{.Names}}'
    podman pod ls --filter name=vfps --format '{{.Name}}'
    podman network ls --format '{{.Name}}' | grep '^vfps_' || true
    podman volume ls --format '{{.Name}}'
  } | sort
}

before=$(leftovers)
on_exit 'compose down >/dev/null 2>&1 || true'
say "podman-compose -f compose.yaml --profile test up -d"
compose up -d
if ! wait_for 120 1 "" vfps_serving http://127.0.0.1:8080 127.0.0.1:8081; then
  podman logs vfps_vfps_1 2>&1 | tail -30
  say "FAILED: vfps did not get ready under compose"
  exit 1
fi

limits=$(podman inspect vfps_vfps_1 --format '{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}} {{.HostConfig.ReadonlyRootfs}}')
say "vfps's container: CPUs (nano), memory, read-only root: $limits"
[ "$limits" = "1000000000 134217728 true" ] || { say "FAILED: the container's limits are not the file's"; exit 1; }

say "the README's tour against it"
bash .ci/doc-examples.sh --running README.md

say "podman-compose -f compose.yaml --profile test down"
compose down 2>&1 | tail -n 2
after=$(leftovers)
if [ "$after" != "$before" ]; then
  say "FAILED: left behind after down:"
  comm -13 <(echo "$before") <(echo "$after")
  exit 1
fi
say "nothing left behind"
