#!/usr/bin/env bash
# Builds everything a release publishes from dist/hooks (make release builds it first):
#   dist/release/hooks-VERSION.tgz       the plugin, byte-identical for identical sources
#   dist/release/hooks-VERSION.tgz.prov  Helm's provenance file, signed with GnuPG
#   dist/release/SHA256SUMS
# and, when OCI is set, pushes the tarball and .prov as the OCI artifact Helm 4 installs.
#
# Usage: scripts/release.sh VERSION
# Env:   KEY          GnuPG user id or fingerprint to sign with (required)
#        GNUPGHOME    the GnuPG home holding KEY (default: gpg's own)
#        OCI          repository to push to, e.g. ghcr.io/org/plugins/hooks (optional);
#                     its last segment must be the plugin's name, hooks
#        PLAIN_HTTP   1 to push over plain HTTP (loopback registries)
#        ORAS         the oras binary (default: $HOOKS_CACHE/bin/oras, else oras)
#        SOURCE_DATE_EPOCH  the mtime stored in the tarball (default: the time of the last
#                     commit that changed the plugin's sources)
#        OUT          output folder (default: dist/release)
#        DIST_DIR     the plugin folder to release (default: dist/hooks)
#        SOURCE_URL   written into the released plugin.yaml as sourceURL, which `helm plugin
#                     list` shows as SOURCE (the project has no public address to commit yet)
set -euo pipefail

version=${1:?usage: scripts/release.sh VERSION}
root=$(cd "$(dirname "$0")/.." && pwd)
src=${DIST_DIR:-$root/dist/hooks}
out=${OUT:-$root/dist/release}
: "${KEY:?set KEY to the GnuPG key that signs the release}"

die() { echo "release: $*" >&2; exit 1; }

# One version everywhere: plugin.yaml is what Helm reads, Cargo.toml what `helm hooks version`
# prints; a release whose three disagree would publish a plugin that misreports itself.
yaml_version=$(sed -n 's/^version: *//p' "$root/plugin.yaml")
cargo_version=$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' "$root/Cargo.toml")
[ "$version" = "$yaml_version" ] || die "VERSION=$version but plugin.yaml says $yaml_version"
[ "$version" = "$cargo_version" ] || die "VERSION=$version but Cargo.toml says $cargo_version"
listing=$root/artifacthub/hooks/plugin.yaml
[ ! -f "$listing" ] || [ "$(sed -n 's/^version: *//p' "$listing")" = "$version" ] ||
  die "VERSION=$version but $listing says otherwise"
[ -f "$src/plugin.wasm" ] && [ -f "$src/plugin.yaml" ] || die "$src is not built (make dist/hooks)"
cmp -s "$src/plugin.yaml" "$root/plugin.yaml" || die "$src/plugin.yaml is stale (make dist/hooks)"

# The time of the last commit that changed what dist/hooks is built from, so a commit that
# touches only docs or tests releases the same bytes.
epoch=${SOURCE_DATE_EPOCH:-$(cd "$root" && git log -1 --format=%ct -- plugin.yaml completion.yaml \
  LICENSE Cargo.toml Cargo.lock build.rs src 2>/dev/null || true)}
epoch=${epoch:-0}
name=hooks-$version.tgz
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Helm's own `helm plugin package` stores each file's mtime, uid, gid and owner names, so
# two packagings differ. Here every varying field is fixed: the order (sorted names), the
# mtime (SOURCE_DATE_EPOCH), the owner (0/0, numeric, no names), the modes (0644, dirs
# 0755), the format (ustar: no atime/ctime), and gzip without a name or timestamp (-n).
cp -R "$src" "$tmp/hooks"
if [ -n "${SOURCE_URL:-}" ]; then
  sed -i "s|^version: .*|&\nsourceURL: $SOURCE_URL|" "$tmp/hooks/plugin.yaml"
fi
find "$tmp/hooks" -type d -exec chmod 0755 {} + && find "$tmp/hooks" -type f -exec chmod 0644 {} +
tar --sort=name --format=ustar --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
  -C "$tmp" -cf - hooks | gzip -n -9 >"$tmp/$name"

# The .prov is the message block Helm's signer writes (the plugin's metadata, `...`, then
# the tarball's sha256 under its file name), clear-signed by gpg rather than by `helm plugin
# package --sign`: that one needs a legacy secret keyring and packages its own tarball.
{
  cat "$tmp/hooks/plugin.yaml"
  printf '\n...\nfiles:\n  %s: sha256:%s\n' "$name" "$(sha256sum "$tmp/$name" | cut -d' ' -f1)"
} >"$tmp/block"
gpg --batch --yes --local-user "$KEY" --digest-algo SHA256 --clearsign \
  -o "$tmp/$name.prov" "$tmp/block"

mv "$tmp/$name" "$tmp/$name.prov" "$out/"
(cd "$out" && sha256sum "$name" "$name.prov" >SHA256SUMS)
ls -l "$out/$name" "$out/$name.prov" "$out/SHA256SUMS" >&2

if [ -n "${OCI:-}" ]; then
  [ "${OCI##*/}" = hooks ] || die "OCI=$OCI: Helm requires the repository's last segment to be the plugin name, hooks"
  oras=${ORAS:-$(command -v "${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}/bin/oras" || command -v oras)} ||
    die "oras not found (testbed/build.sh oras)"
  # Helm 4 finds the plugin by this artifact type and by the layers' titles (the file names,
  # which oras takes from the paths given, hence the cd).
  (cd "$out" && "$oras" push ${PLAIN_HTTP:+--plain-http} "$OCI:$version" \
    --artifact-type application/vnd.helm.plugin.v1+json "$name" "$name.prov")
fi
