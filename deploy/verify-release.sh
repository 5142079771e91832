#!/usr/bin/env bash
# Verifies a vfps release offline, as a site receives it (deploy/release.sh makes it):
#
#   verify-release.sh RELEASE_DIRECTORY PUBLIC_KEY
#
# PUBLIC_KEY is the release key's public half as the site got it by a path it trusts, not the copy
# inside the release. Checks, each one printed as ok or FAIL:
#   sums       every file named in SHA256SUMS has that SHA-256
#   signature  SHA256SUMS, the OCI archive, the image digest and both SBOMs are signed with the key
#              (cosign verify-blob: Sigstore bundles, key only, no transparency log, no network)
#   image      the OCI archive holds one image, whose manifest digest is the signed one
#   jar        the image's /opt/vfps/vfps.jar is the release's jar
#   version    the image's label org.opencontainers.image.version, the chart's appVersion, the
#              signed image digest's version and both SBOMs name the same version
# and prints the image's digest, for deploying by digest. Exits 1 when any check fails.
#
# Needs cosign (go install github.com/sigstore/cosign/v2/cmd/cosign@v2.6.5), python3, sha256sum.
set -euo pipefail

if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -f "$2" ]; then
  echo "usage: $0 RELEASE_DIRECTORY PUBLIC_KEY" >&2
  exit 2
fi
release=$(cd "$1" && pwd)
public_key=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
command -v cosign >/dev/null || PATH="${GOBIN:-$HOME/go/bin}:$PATH"
command -v cosign >/dev/null || { echo "verify-release: cosign is needed (see $0)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { printf '  ok    %s\n' "$*"; }
fail() { printf '  FAIL  %s\n' "$*"; failures=$((failures + 1)); }

cd "$release"
archives=(vfps-*.oci.tar)
if [ ${#archives[@]} -ne 1 ] || [ ! -f "${archives[0]}" ]; then
  echo "verify-release: $release holds no single vfps-<version>.oci.tar" >&2
  exit 1
fi
archive=${archives[0]}
version=${archive#vfps-}
version=${version%.oci.tar}
echo "== vfps $version in $release"

if sha256sum --check --strict --quiet SHA256SUMS >"$work/sums" 2>&1; then
  pass "sums: $(wc -l <SHA256SUMS) files match SHA256SUMS"
else
  fail "sums: $(tr '\n' ' ' <"$work/sums")"
fi

# a trust root that names no certificate authority and no log: the key alone is trusted, and
# cosign asks the network for nothing
echo '{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}' >"$work/trusted-root.json"
for file in SHA256SUMS "$archive" "vfps-$version.image.json" "vfps-$version.cdx.json" \
  "vfps-$version.image.cdx.json"; do
  if [ ! -f "$file.sigstore.json" ]; then
    fail "signature: $file has none ($file.sigstore.json)"
  elif cosign verify-blob --key "$public_key" --bundle "$file.sigstore.json" --new-bundle-format \
    --trusted-root "$work/trusted-root.json" --insecure-ignore-tlog "$file" >"$work/cosign" 2>&1; then
    pass "signature: $file"
  else
    fail "signature: $file: $(grep -v '^WARNING' "$work/cosign" | head -1)"
  fi
done

# the image and chart facts, one line each: name=value
python3 - "$archive" "vfps-$version.image.json" "vfps-$version.cdx.json" \
  "vfps-$version.image.cdx.json" vfps-*.tgz >"$work/facts" 2>"$work/facts.error" <<'PY' || unreadable=1
import hashlib, json, re, sys, tarfile
archive_path, claim_path, jar_sbom_path, image_sbom_path, chart_path = sys.argv[1:6]
with tarfile.open(archive_path) as archive:
    def blob(digest):
        return json.load(archive.extractfile("blobs/" + digest.replace(":", "/")))
    manifests = json.load(archive.extractfile("index.json"))["manifests"]
    print("manifests=%d" % len(manifests))
    digest = manifests[0]["digest"]
    print("archive.digest=" + digest)
    config = blob(blob(digest)["config"]["digest"])
    labels = config.get("config", {}).get("Labels") or {}
    print("image.version=" + labels.get("org.opencontainers.image.version", "(no label)"))
    # the jar as the image holds it: from the last layer that writes it
    jar_sha256 = "(none)"
    for layer in blob(digest)["layers"]:
        with tarfile.open(fileobj=archive.extractfile("blobs/" + layer["digest"].replace(":", "/"))) as files:
            for member in files:
                if member.name.lstrip("./") == "opt/vfps/vfps.jar" and member.isfile():
                    jar_sha256 = hashlib.sha256(files.extractfile(member).read()).hexdigest()
    print("image.jar=" + jar_sha256)
claim = json.load(open(claim_path))
print("signed.digest=" + claim["critical"]["image"]["docker-manifest-digest"])
print("signed.version=" + claim["optional"]["org.opencontainers.image.version"])
jar_sbom = json.load(open(jar_sbom_path))
print("jar-sbom.version=" + jar_sbom["metadata"]["component"]["version"])
image_sbom = json.load(open(image_sbom_path))
print("image-sbom.version=" + image_sbom["metadata"]["component"]["version"])
with tarfile.open(chart_path) as chart:
    member = next(m for m in chart.getmembers() if m.name.endswith("/Chart.yaml") and m.name.count("/") == 1)
    text = chart.extractfile(member).read().decode()
match = re.search(r'^appVersion:\s*"?([^"\s]+)"?\s*$', text, re.M)
print("chart.appVersion=" + (match.group(1) if match else "(none)"))
PY
fact() { sed -n "s/^$1=//p" "$work/facts"; }
if [ -n "${unreadable:-}" ]; then
  fail "image: cannot read the release: $(tail -1 "$work/facts.error")"
fi

if [ "$(fact manifests)" != 1 ]; then
  fail "image: the OCI archive holds $(fact manifests) manifests, not one"
elif [ "$(fact archive.digest)" = "$(fact signed.digest)" ]; then
  pass "image: $archive is the signed image $(fact signed.digest)"
else
  fail "image: $archive holds $(fact archive.digest), the signed image is $(fact signed.digest)"
fi

release_jar=$(sha256sum "vfps-$version.jar" | cut -d' ' -f1)
if [ "$(fact image.jar)" = "$release_jar" ]; then
  pass "jar: the image's /opt/vfps/vfps.jar is vfps-$version.jar"
else
  fail "jar: the image's /opt/vfps/vfps.jar ($(fact image.jar)) is not vfps-$version.jar ($release_jar)"
fi

mismatched=""
for name in image.version chart.appVersion signed.version jar-sbom.version image-sbom.version; do
  [ "$(fact "$name")" = "$version" ] || mismatched+=" $name=$(fact "$name")"
done
if [ -z "$mismatched" ]; then
  pass "version: $version in the image label, the chart's appVersion, the signed digest and both SBOMs"
else
  fail "version: not $version:$mismatched"
fi

if [ "$failures" -ne 0 ]; then
  echo "== FAILED: $failures checks; do not deploy this release"
  exit 1
fi
echo "== verified: deploy the image by its digest, $(fact signed.digest)"
