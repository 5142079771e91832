#!/usr/bin/env bash
# Builds the vfps image, localhost/vfps:<version>, from the Dockerfile with podman, without any
# image registry, and writes it as an OCI archive: target/vfps-<version>.oci.tar.
#
#   deploy/image.sh                 # base images (if missing), the image, the archive
#   AOT_CACHE=false deploy/image.sh # without the AOT cache: quicker build, slower start
#
# The Dockerfile's base images (a JDK to build the jar on, a JRE to run it) are not pulled: they
# are made on this machine from Debian's packages and its Temurin 25 JDK (deploy/base/images.sh),
# once, and then reused.
#
# Reproducible: the base file systems, the jar and the image's layers take their dates from the
# last commit (SOURCE_DATE_EPOCH). The AOT cache is recorded by a training run inside the build
# and differs from build to build; so do the Debian packages when Debian publishes an update.
#
# Needs root (podman, buildah, mmdebstrap and runc are installed from Debian's packages when
# missing) and reaches Debian's package archive and Maven Central, nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

aot_cache=${AOT_CACHE:-required}

if [ "$(id -u)" != 0 ]; then
  say "deploy/image.sh runs as root: podman builds and mmdebstrap lays out root file systems"
  exit 1
fi
for tool in podman buildah skopeo mmdebstrap runc; do
  command -v "$tool" >/dev/null || apt_install podman buildah skopeo mmdebstrap runc uidmap
done

version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
revision=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)

mapfile -t bases < <(deploy/base/images.sh)
jdk_image=${bases[0]} jre_image=${bases[1]} debian_image=${bases[2]}

# The build trusts what this machine trusts (a proxy's CA, say) while it fetches Maven and the
# jar's dependencies: the machine's CA bundle and Java trust store are mounted for the build's
# RUN steps only and are not part of the image.
trust=(-v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro)
java_trust=$(readlink -f "${VFPS_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/lib/security/cacerts")
trust+=(-v "$java_trust:/opt/java/openjdk/lib/security/cacerts:ro")

read -ra ulimits <<<"$(podman_ulimits)"
say "image localhost/vfps:$version (revision $revision, AOT cache: $aot_cache)"
# docker format: the OCI image configuration has no place for the HEALTHCHECK
podman build --format docker --network host \
  --timestamp "$SOURCE_DATE_EPOCH" "${trust[@]}" \
  --build-arg JDK_IMAGE="$jdk_image" --build-arg JRE_IMAGE="$jre_image" \
  --build-arg VERSION="$version" --build-arg REVISION="$revision" --build-arg CREATED="$created" \
  --build-arg AOT_CACHE="$aot_cache" \
  "${ulimits[@]}" \
  -t "localhost/vfps:$version" .

# the image names itself as the build does
says=$(podman run --rm --read-only "${ulimits[@]}" \
  "localhost/vfps:$version" --version)
if [ "$says" != "vfps $version (revision $revision)" ]; then
  say "the image says \"$says\", not vfps $version (revision $revision)"
  exit 1
fi
say "$says"

mkdir -p target
archive=target/vfps-$version.oci.tar
rm -f "$archive"
podman save --format oci-archive -o "$archive" "localhost/vfps:$version"
say "wrote $archive ($(du -h "$archive" | cut -f1)); image $(podman image inspect --format '{{.Id}}' "localhost/vfps:$version" | cut -c1-12), $(podman image inspect --format '{{.Size}}' "localhost/vfps:$version" | numfmt --to=iec) unpacked"

# compose.yaml's PostgreSQL, on the same Debian base
say "image localhost/vfps-postgresql:15 (Debian's PostgreSQL 15 package, for compose.yaml)"
podman build --network host --timestamp "$SOURCE_DATE_EPOCH" --build-arg DEBIAN_IMAGE="$debian_image" \
  "${ulimits[@]}" \
  -t localhost/vfps-postgresql:15 deploy/postgresql
