#!/usr/bin/env bash
# Collects a release into target/release/, after `./mvnw package` and deploy/image.sh have run:
#
#   vfps-<version>.jar               the service's jar (target/vfps.jar)
#   vfps-<version>.cdx.json          the jar's SBOM (CycloneDX, from the Maven build)
#   vfps-<version>.oci.tar           the image localhost/vfps:<version>, an OCI archive (image.sh)
#   vfps-<version>.image.cdx.json    the image's SBOM (CycloneDX, syft over the OCI archive)
#   vfps-<version>.image.json        the image's manifest digest, in cosign's signature payload form
#   vfps-<chart version>.tgz         the Helm chart, appVersion <version>
#   verify-release.sh                the site's check (deploy/verify-release.sh)
#   cosign.pub                       the public key of the signatures
#   SHA256SUMS                       the SHA-256 of every file above
#   *.sigstore.json                  signatures (Sigstore bundles, cosign sign-blob, no transparency
#                                    log) of SHA256SUMS, the OCI archive, the image digest and both
#                                    SBOMs
#
# and checks it with deploy/verify-release.sh. docs/deployment/verifying.md says what a site does
# with it.
#
#   VFPS_SIGNING_KEY=/path/cosign.key COSIGN_PASSWORD=... deploy/release.sh [OCI_ARCHIVE]
#
# VFPS_SIGNING_KEY  the signing key, as cosign's --key takes it: a file made by `cosign
#                   generate-key-pair` (its password in COSIGN_PASSWORD), env://NAME for a key held
#                   in the variable NAME, or a KMS reference; required
# OCI_ARCHIVE       default target/vfps-<version>.oci.tar, <version> the pom's (VFPS_VERSION
#                   overrides it)
# Tools (installed with go install where missing): cosign, syft, helm; and python3, sha256sum.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

COSIGN_MODULE=github.com/sigstore/cosign/v2/cmd/cosign@v2.6.5
SYFT_MODULE=github.com/anchore/syft/cmd/syft@v1.57.2
HELM_MODULE=helm.sh/helm/v3/cmd/helm@v3.21.4

if [ -z "${VFPS_SIGNING_KEY:-}" ]; then
  echo "release: VFPS_SIGNING_KEY must name the signing key (see the head of $0)" >&2
  exit 2
fi
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
version=${VFPS_VERSION:-$(./mvnw -q -B -ntp org.apache.maven.plugins:maven-help-plugin:3.5.2:evaluate \
  -DforceStdout -Dexpression=project.version)}
archive=${1:-target/vfps-$version.oci.tar}
jar=target/vfps.jar
jar_sbom=target/vfps-$version.cdx.json
out=target/release

for file in "$jar" "$jar_sbom" "$archive"; do
  [ -f "$file" ] || { echo "release: $file is missing: run ./mvnw package and deploy/image.sh" >&2; exit 2; }
done
jar_version=$(unzip -p "$jar" META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: *\([^[:space:]]*\).*/\1/p')
if [ "$jar_version" != "$version" ]; then
  echo "release: $jar is version '$jar_version', not $version: build it again" >&2
  exit 2
fi

go_tool cosign "$COSIGN_MODULE"
go_tool syft "$SYFT_MODULE"
go_tool helm "$HELM_MODULE"

say "release $version into $out"
rm -rf "$out"
mkdir -p "$out"
cp "$jar" "$out/vfps-$version.jar"
cp "$jar_sbom" "$out/vfps-$version.cdx.json"
cp "$archive" "$out/vfps-$version.oci.tar"
cp deploy/verify-release.sh "$out/verify-release.sh"

say "the image's SBOM (syft)"
# the sbom cataloger adds the libraries of the jar's SBOM, where the image carries it beside the
# jar: the shaded jar itself names none of them
SYFT_CHECK_FOR_APP_UPDATE=false syft scan "oci-archive:$out/vfps-$version.oci.tar" -q \
  --source-name vfps --source-version "$version" --select-catalogers +sbom-cataloger \
  -o "cyclonedx-json=$out/vfps-$version.image.cdx.json"

say "the image's manifest digest"
python3 - "$out/vfps-$version.oci.tar" "$version" >"$out/vfps-$version.image.json" <<'PY'
import json, sys, tarfile
with tarfile.open(sys.argv[1]) as archive:
    manifests = json.load(archive.extractfile("index.json"))["manifests"]
if len(manifests) != 1:
    sys.exit(f"release: the OCI archive holds {len(manifests)} manifests, not one")
name = manifests[0].get("annotations", {}).get("org.opencontainers.image.ref.name", "")
# the payload cosign signs for an image, and the version the image is released as
print(json.dumps({
    "critical": {
        "identity": {"docker-reference": name.rsplit(":", 1)[0] if ":" in name.split("/")[-1] else name},
        "image": {"docker-manifest-digest": manifests[0]["digest"]},
        "type": "cosign container image signature",
    },
    "optional": {"org.opencontainers.image.version": sys.argv[2], "ref.name": name},
}, indent=2))
PY

say "the Helm chart"
helm package deploy --app-version "$version" --destination "$out" >/dev/null

cosign public-key --key "$VFPS_SIGNING_KEY" >"$out/cosign.pub"
(cd "$out" && sha256sum -- * >SHA256SUMS)

say "signatures"
for file in SHA256SUMS "vfps-$version.oci.tar" "vfps-$version.image.json" \
  "vfps-$version.cdx.json" "vfps-$version.image.cdx.json"; do
  if ! output=$(cosign sign-blob --yes --key "$VFPS_SIGNING_KEY" --tlog-upload=false \
    --new-bundle-format --bundle "$out/$file.sigstore.json" "$out/$file" 2>&1); then
    printf 'release: cosign sign-blob %s failed:\n%s\n' "$file" "$output" >&2
    exit 1
  fi
done

# the bundles hold no secret; cosign writes them readable by their owner only
chmod 644 "$out"/*.sigstore.json

say "check"
bash deploy/verify-release.sh "$out" "$out/cosign.pub"
