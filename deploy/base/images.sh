#!/usr/bin/env bash
# Makes the base images the Dockerfiles build on, from this machine's own sources instead of an
# image registry, unless they are there already; prints their names in this order:
#
#   localhost/vfps-base-jdk:<tag>  Debian (minbase, with curl and unzip for the Maven wrapper)
#                                  and this machine's Temurin 25 JDK
#   localhost/vfps-base-jre:<tag>  Debian (minbase) and a runtime linked from that JDK: its
#                                  run-time modules, no compiler or tools, its CDS archive
#   localhost/vfps-base-debian:<tag> Debian (minbase) alone, for compose's PostgreSQL
#                                  (deploy/postgresql)
#
# Debian comes from Debian's packages (mmdebstrap); Java sits at /opt/java/openjdk with JAVA_HOME
# and PATH set, as in the public eclipse-temurin images the Dockerfile names by default. Java's
# trust store is made from Debian's CA bundle (JavaTrustStore.java), not copied from this machine.
# The tag says what an image was made of (Debian suite, JDK build, a hash of this folder), so a
# change of any makes new images. Needs root; VFPS_JAVA_HOME names the JDK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh

java_home=${VFPS_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
debian_suite=${VFPS_DEBIAN_SUITE:-bookworm}
[ -x "$java_home/bin/jlink" ] || { say "no JDK at $java_home (set VFPS_JAVA_HOME)"; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

jdk_build=$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$java_home/release")
recipe=$(cat deploy/base/* | sha256sum | cut -c1-8)
tag="$debian_suite-temurin-${jdk_build//+/_}-$recipe"
jdk_image=localhost/vfps-base-jdk:$tag
jre_image=localhost/vfps-base-jre:$tag
debian_image=localhost/vfps-base-debian:$debian_suite-$recipe

work=$(mktemp -d)
on_exit "rm -rf '$work'"

# base_image IMAGE PACKAGES [RUNTIME]: Debian with PACKAGES, and the Java RUNTIME at
# /opt/java/openjdk when one is given
base_image() {
  local image=$1 packages=$2 runtime=${3:-}
  local hooks=() env=(--change "ENV LANG=C.UTF-8")
  say "base image $image (Debian $debian_suite from its packages${runtime:+, Java from $java_home})" >&2
  if [ -n "$runtime" ]; then
    # the runtime's trust store is a link to this machine's: a file made from Debian's bundle instead
    hooks+=(--customize-hook="mkdir -p \"\$1/opt/java\" && cp -a '$runtime' \"\$1/opt/java/openjdk\"")
    hooks+=(--customize-hook="rm -f \"\$1/opt/java/openjdk/lib/security/cacerts\" && '$java_home/bin/java' deploy/base/JavaTrustStore.java \"\$1/etc/ssl/certs/ca-certificates.crt\" \"\$1/opt/java/openjdk/lib/security/cacerts\" >&2")
    env+=(--change "ENV JAVA_HOME=/opt/java/openjdk")
    env+=(--change "ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
  fi
  # shellcheck disable=SC2016 # a hook's $1 is the root directory, given by mmdebstrap
  mmdebstrap --quiet --variant=minbase ${packages:+--include="$packages"} "${hooks[@]}" \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*' \
    "$debian_suite" "$work/rootfs.tar" >&2
  podman import "${env[@]}" --change 'CMD ["/bin/bash"]' "$work/rootfs.tar" "$image" >/dev/null
  rm -f "$work/rootfs.tar"
}

if ! podman image exists "$jdk_image"; then
  base_image "$jdk_image" ca-certificates,curl,unzip "$java_home"
fi
if ! podman image exists "$jre_image"; then
  modules=$("$java_home/bin/java" --list-modules | sed 's/@.*//' |
    grep -v -E '^jdk\.(compiler|editpad|hotspot\.agent|incubator\..*|internal\..*|jartool|javadoc|jcmd|jconsole|jdeps|jdi|jdwp\.agent|jlink|jpackage|jshell|jstatd)$' |
    paste -sd, -)
  "$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --generate-cds-archive --output "$work/jre" >&2
  base_image "$jre_image" ca-certificates "$work/jre"
  rm -rf "$work/jre"
fi
if ! podman image exists "$debian_image"; then
  base_image "$debian_image" ""
fi
echo "$jdk_image"
echo "$jre_image"
echo "$debian_image"
