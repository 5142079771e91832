#!/usr/bin/env bash
# CI: the release, signed and verified as a site does, and refused once tampered with. After
# `./mvnw package` and deploy/image.sh (which write target/vfps.jar, its SBOM and the OCI archive):
#
#   1. deploy/release.sh with a throwaway key, made in this run, into target/release
#   2. deploy/verify-release.sh with that key's public half: must pass
#      and the image's SBOM names the Debian packages, the Java runtime, the jar and the jar's
#      libraries (the image carries the jar's SBOM beside the jar, where syft reads it)
#   3. on copies of the release, verify-release.sh must fail, with the failure that names the
#      change, when
#        - one byte of the jar's SBOM changed
#        - the same, and SHA256SUMS written anew to match
#        - the OCI archive holds another image under the same name (its config changed, so its
#          manifest digest), SHA256SUMS written anew
#        - the release was signed again with another key (the site checks with its own copy of
#          the public key, not the one inside the release)
#
#   .ci/release-check.sh [OCI_ARCHIVE]     (default: deploy/release.sh's, from the pom's version)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
SAY_STYLE=${SAY_STYLE:-section}

go_tool cosign github.com/sigstore/cosign/v2/cmd/cosign@v2.6.5
work=$(mktemp -d /tmp/vfps-release-check.XXXXXX)
on_exit "rm -rf '$work'"

# a key pair for this run only, its password too
COSIGN_PASSWORD=$(head -c 24 /dev/urandom | base64)
export COSIGN_PASSWORD
(cd "$work" && cosign generate-key-pair --output-key-prefix release >/dev/null 2>&1)
(cd "$work" && cosign generate-key-pair --output-key-prefix other >/dev/null 2>&1)

say "release with a throwaway key"
VFPS_SIGNING_KEY=$work/release.key bash deploy/release.sh "$@"
release=target/release
version=$(sed -n 's/^[0-9a-f]*  vfps-\(.*\)\.oci\.tar$/\1/p' "$release/SHA256SUMS")

passed=0
failed=0
check_passed() { printf '  ok    %s\n' "$*"; passed=$((passed + 1)); }
check_failed() { printf '  FAIL  %s\n' "$*"; failed=$((failed + 1)); }

say "verify-release.sh with the key's public half"
if bash deploy/verify-release.sh "$release" "$work/release.pub" >"$work/verify.log" 2>&1; then
  check_passed "the release verifies"
else
  cat "$work/verify.log"
  check_failed "the release does not verify"
fi

# tampered NAME: a copy of the release in $work/NAME (hard links: a change writes a new file)
tampered() {
  cp -al "$release" "$work/$1"
  echo "$work/$1"
}

# replace FILE: FILE's content from stdin, as a new file (the release's own is another link)
replace() {
  cat >"$1.new"
  mv "$1.new" "$1"
}

# resum DIRECTORY: SHA256SUMS written anew for the files it names, as one who tampered would
resum() { (cd "$1" && awk '{print $2}' SHA256SUMS | xargs sha256sum -- >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS); }

# refused NAME DIRECTORY PATTERN...: verify-release.sh fails on DIRECTORY, printing a FAIL line
# matching each PATTERN
refused() {
  local name=$1 directory=$2 pattern missing=""
  shift 2
  if bash deploy/verify-release.sh "$directory" "$work/release.pub" >"$work/$name.log" 2>&1; then
    cat "$work/$name.log"
    check_failed "$name: verified, must fail"
    return
  fi
  for pattern in "$@"; do
    grep -q "FAIL  $pattern" "$work/$name.log" || missing+=" '$pattern'"
  done
  if [ -n "$missing" ]; then
    cat "$work/$name.log"
    check_failed "$name: failed, but without$missing"
  else
    check_passed "$name: refused"
    sed -n 's/^  FAIL  /          FAIL  /p' "$work/$name.log"
  fi
}

say "what the image's SBOM sees"
# the Debian packages, the Java runtime (by its release file), the jar, and the jar's libraries
# (from the jar's SBOM beside it in the image)
python3 - "$release/vfps-$version.image.cdx.json" "$version" >"$work/image-sbom" <<'PY'
import json, sys
components = json.load(open(sys.argv[1]))["components"]
purls = [c.get("purl", "") for c in components]
print("debian=%d" % sum(p.startswith("pkg:deb/debian/") for p in purls))
print("java=" + ",".join(c["name"] + " " + c.get("version", "") for c in components
                         if c.get("purl", "").startswith("pkg:generic/") and "jdk" in c["name"]))
print("vfps=%s" % any(p.startswith("pkg:maven/org.vfps/vfps@%s" % sys.argv[2]) for p in purls))
print("vertx-core=" + ",".join(p.split("@")[1].split("?")[0] for p in purls
                               if p.startswith("pkg:maven/io.vertx/vertx-core@")))
PY
image_sbom() { sed -n "s/^$1=//p" "$work/image-sbom"; }
if [ "$(image_sbom debian)" -gt 0 ] && [ -n "$(image_sbom java)" ] &&
  [ "$(image_sbom vfps)" = True ] && [ -n "$(image_sbom vertx-core)" ]; then
  check_passed "the image's SBOM: $(image_sbom debian) Debian packages, $(image_sbom java), vfps $version, vertx-core $(image_sbom vertx-core)"
else
  check_failed "the image's SBOM misses some of: Debian packages ($(image_sbom debian)), the Java runtime ($(image_sbom java)), vfps $version ($(image_sbom vfps)), vertx-core ($(image_sbom vertx-core))"
fi

say "tampered releases: verify-release.sh must fail"
sbom=vfps-$version.cdx.json

copy=$(tampered sbom-byte)
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 1; sys.stdout.buffer.write(d)' \
  "$copy/$sbom" | replace "$copy/$sbom"
refused "one byte of the jar's SBOM" "$copy" "sums" "signature: $sbom"

copy=$(tampered sbom-byte-resummed)
python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[len(d) // 2] ^= 1; sys.stdout.buffer.write(d)' \
  "$copy/$sbom" | replace "$copy/$sbom"
resum "$copy"
refused "one byte of the jar's SBOM, SHA256SUMS written anew" "$copy" "signature: SHA256SUMS" "signature: $sbom"

copy=$(tampered swapped-image)
archive=$copy/vfps-$version.oci.tar
# another image under the same name and version label: its config gains an environment variable,
# which gives it another config digest and so another manifest digest
python3 - "$archive" >"$work/swapped.oci.tar" <<'PY'
import hashlib, io, json, sys, tarfile
source = tarfile.open(sys.argv[1])
index = json.load(source.extractfile("index.json"))
def blob_name(digest):
    return "blobs/" + digest.replace(":", "/")
manifest = json.load(source.extractfile(blob_name(index["manifests"][0]["digest"])))
config = json.load(source.extractfile(blob_name(manifest["config"]["digest"])))
config.setdefault("config", {}).setdefault("Env", []).append("SWAPPED=1")
new = {}
def add(data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    new[blob_name(digest)] = data
    return digest, len(data)
manifest["config"]["digest"], manifest["config"]["size"] = add(json.dumps(config).encode())
index["manifests"][0]["digest"], index["manifests"][0]["size"] = add(json.dumps(manifest).encode())
new["index.json"] = json.dumps(index).encode()
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as target:
    for member in source.getmembers():
        if member.name not in new:
            target.addfile(member, source.extractfile(member) if member.isfile() else None)
    for name, data in new.items():
        info = tarfile.TarInfo(name)
        info.size = len(data)
        target.addfile(info, io.BytesIO(data))
PY
replace "$archive" <"$work/swapped.oci.tar"
rm -f "$work/swapped.oci.tar"
resum "$copy"
refused "another image under the same name" "$copy" "signature: vfps-$version.oci.tar" "image: "

copy=$(tampered other-key)
for bundle in "$copy"/*.sigstore.json; do
  rm -f "$bundle"
  cosign sign-blob --yes --key "$work/other.key" --tlog-upload=false --new-bundle-format \
    --bundle "$bundle" "${bundle%.sigstore.json}" >/dev/null 2>&1
done
cp --remove-destination "$work/other.pub" "$copy/cosign.pub"
resum "$copy"
refused "signed again with another key" "$copy" "signature: SHA256SUMS" "signature: vfps-$version.oci.tar"

echo "release-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
