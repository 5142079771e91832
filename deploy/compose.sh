#!/usr/bin/env bash
# podman-compose -f compose.yaml "$@", with a podman-compose that knows profiles: Debian's 1.0.3
# does not, so the pinned one from PyPI is installed into target/podman-compose on first use.
#
#   deploy/compose.sh --profile test up -d     # PostgreSQL and vfps (after deploy/image.sh)
#   deploy/compose.sh --profile test down      # stop and remove them, and their network
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

PODMAN_COMPOSE_VERSION=1.6.0
venv=target/podman-compose
if [ "$("$venv/bin/podman-compose" --version 2>/dev/null | sed -n 's/^podman-compose version //p')" != "$PODMAN_COMPOSE_VERSION" ]; then
  say "installing podman-compose $PODMAN_COMPOSE_VERSION into $venv" >&2
  python_venv "$venv" "podman-compose==$PODMAN_COMPOSE_VERSION"
fi
command -v podman >/dev/null || apt_install podman runc
# without systemd, podman cannot schedule health checks and says so at every container's start
exec "$venv/bin/podman-compose" -f compose.yaml "$@" 2> >(grep -v 'unable to get systemd connection' >&2)
