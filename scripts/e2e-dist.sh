#!/usr/bin/env bash
# Distribution end to end (make e2e-dist, part of make test): scripts/release.sh and the
# real Helm 4 ($HELM) against a loopback HTTP server and a loopback OCI registry, with
# throw-away GnuPG keys and Helm homes made here. No cluster and no network beyond loopback.
#
# Checks: two releases are byte-identical; install by URL, by oci:// tag, by digest and from
# an `oras copy` mirror, each verified with --keyring; a tampered tarball, another signer and
# a missing .prov are refused with Helm's message; the upgrade path (update and install over
# fail, uninstall + install works); uninstall leaves nothing; completion offers subcommands
# and flags; `helm hooks version -o json`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=testbed/versions.sh
. "$root/testbed/versions.sh"
helm=${HELM:-$HOOKS_CACHE/bin/helm}
oras=$HOOKS_CACHE/bin/oras
version=$(sed -n 's/^version: *//p' "$root/plugin.yaml")
tgz=hooks-$version.tgz

tmp=$(mktemp -d)
http_pid=
cleanup() {
  [ -z "$http_pid" ] || kill "$http_pid" 2>/dev/null || true
  "$root/testbed/registry.sh" down "$tmp/registry" || true
  GNUPGHOME=$tmp/gnupg gpgconf --kill all 2>/dev/null || true
  GNUPGHOME=$tmp/other gpgconf --kill all 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Helm's homes and GnuPG's, all inside $tmp. HELM_PLUGINS stays unset: Helm 4.2.4's
# `plugin install` writes to $HELM_DATA_HOME/plugins whatever it says (helm/helm#32646).
unset HELM_PLUGINS
export HELM_CONFIG_HOME=$tmp/helm/config HELM_CACHE_HOME=$tmp/helm/cache \
  HELM_DATA_HOME=$tmp/helm/data HELM_REGISTRY_CONFIG=$tmp/helm/registry.json GNUPGHOME=$tmp/gnupg
plugins=$HELM_DATA_HOME/plugins
mkdir -p "$plugins" "$tmp/gnupg" "$tmp/other" && chmod 700 "$tmp/gnupg" "$tmp/other"

failures=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*" >&2; failures=$((failures + 1)); }

# expect_ok NAME CMD...: CMD succeeds.
expect_ok() {
  local name=$1; shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name: $* exited non-zero: $out"; fi
}
# expect_refused NAME MESSAGE CMD...: CMD fails and says MESSAGE, and installs nothing.
expect_refused() {
  local name=$1 msg=$2; shift 2
  if out=$("$@" 2>&1); then
    fail "$name: $* succeeded: $out"
  elif [[ $out != *"$msg"* ]]; then
    fail "$name: expected \"$msg\", got: $out"
  elif [ -n "$(ls -A "$plugins")" ]; then
    fail "$name: refused but left $(ls -A "$plugins") in the plugin folder"
  else
    pass "$name ($msg)"
  fi
}
installed_version() { "$helm" plugin list 2>/dev/null | awk '$1 == "hooks" { print $2 }'; }
# Uninstalls and checks nothing is left: no plugin folder entry, nothing in `plugin list`.
uninstall() {
  local name=$1
  "$helm" plugin uninstall hooks >/dev/null
  if [ -n "$(ls -A "$plugins")" ] || [ -n "$(installed_version)" ]; then
    fail "$name: uninstall left $(ls -A "$plugins")"
  else
    pass "$name: uninstall leaves nothing"
  fi
}

# --- keys: the release key, and another signer users never imported ---
gpg --batch --quiet --passphrase '' --quick-gen-key 'helm-hooks release test <release@example.invalid>' ed25519 sign never
GNUPGHOME=$tmp/other gpg --batch --quiet --passphrase '' --quick-gen-key 'someone else <other@example.invalid>' ed25519 sign never
fpr=$(gpg --with-colons --list-keys release@example.invalid | awk -F: '$1 == "fpr" { print $10; exit }')
# Helm reads legacy keyrings only: users export the public key to a file (README).
gpg --export "$fpr" >"$tmp/pubring.gpg"

# --- release, twice: byte-identical ---
start=$(date +%s.%N)
KEY=$fpr OUT=$tmp/rel1 "$root/scripts/release.sh" "$version" 2>/dev/null
end=$(date +%s.%N)
# The second from a copy whose files differ in everything but content: mtimes, modes, and
# (when run as root) owner, a second later.
cp -R "$root/dist/hooks" "$tmp/copy"
touch -d '2001-02-03 04:05:06' "$tmp/copy"/* && chmod 600 "$tmp/copy"/* && chmod 700 "$tmp/copy"
[ "$(id -u)" != 0 ] || chown -R 12345:12345 "$tmp/copy"
sleep 1
KEY=$fpr OUT=$tmp/rel2 DIST_DIR=$tmp/copy "$root/scripts/release.sh" "$version" 2>/dev/null
if cmp "$tmp/rel1/$tgz" "$tmp/rel2/$tgz"; then pass "two releases give byte-identical tarballs"; else fail "two releases differ"; fi
(cd "$tmp/rel1" && sha256sum -c --quiet SHA256SUMS) && pass "SHA256SUMS checks" || fail "SHA256SUMS does not check"
echo "     release: $(awk "BEGIN { printf \"%.2f\", $end - $start }") s; $tgz $(stat -c %s "$tmp/rel1/$tgz") B," \
  ".prov $(stat -c %s "$tmp/rel1/$tgz.prov") B, SHA256SUMS $(stat -c %s "$tmp/rel1/SHA256SUMS") B"
expect_ok "helm plugin verify accepts the release" "$helm" plugin verify "$tmp/rel1/$tgz" --keyring "$tmp/pubring.gpg"

# --- a loopback HTTP server: the release, and three bad copies ---
www=$tmp/www
mkdir -p "$www/ok" "$www/tampered" "$www/other" "$www/noprov" "$www/renamed"
cp "$tmp/rel1/$tgz" "$tmp/rel1/$tgz.prov" "$www/ok/"
# Tampered: the same files with plugin.yaml changed, repacked; the original .prov.
mkdir "$tmp/t" && tar -xzf "$tmp/rel1/$tgz" -C "$tmp/t"
sed -i 's/^  shortHelp: .*/  shortHelp: "tampered"/' "$tmp/t/hooks/plugin.yaml"
tar -C "$tmp/t" -czf "$www/tampered/$tgz" hooks && cp "$tmp/rel1/$tgz.prov" "$www/tampered/"
# Another signer: the real tarball with a .prov signed by a key the user does not trust.
cp "$tmp/rel1/$tgz" "$www/other/"
GNUPGHOME=$tmp/other gpg --batch --quiet --clearsign -o "$www/other/$tgz.prov" \
  <(gpg --decrypt "$tmp/rel1/$tgz.prov" 2>/dev/null)
cp "$tmp/rel1/$tgz" "$www/noprov/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$www" "$port" >"$tmp/http.log" 2>&1 &
http_pid=$!
for _ in $(seq 50); do curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
url=http://127.0.0.1:$port

# --- by URL ---
expect_ok "install by URL, verified" "$helm" plugin install "$url/ok/$tgz" --keyring "$tmp/pubring.gpg"
[ "$(installed_version)" = "$version" ] && pass "plugin list shows hooks $version" || fail "plugin list: $("$helm" plugin list 2>&1)"
"$helm" plugin list | grep -Eq '^hooks\b.*\bsigned\b' && pass "plugin list says signed" || fail "not listed as signed: $("$helm" plugin list 2>&1)"
json=$("$helm" hooks version -o json 2>&1)
[ "$json" = "{\"name\":\"hooks\",\"version\":\"$version\"}" ] && pass "helm hooks version -o json" || fail "version -o json: $json"

# Completion, through Helm's own __complete on the installed plugin.
comp=$("$helm" __complete hooks "" 2>/dev/null)
missing=
for c in plan lint run deploy rollback uninstall version; do grep -qx "$c" <<<"$comp" || missing+=" $c"; done
[ -z "$missing" ] && pass "completion offers every subcommand" || fail "completion lacks$missing: $comp"
comp=$("$helm" __complete hooks run --p 2>/dev/null)
grep -qx -- '--parallel' <<<"$comp" && grep -qx -- '--parallel-all' <<<"$comp" &&
  pass "completion offers run's flags" || fail "run flags: $comp"
comp=$("$helm" __complete hooks deploy - -- 2>/dev/null)
grep -qx -- '--rollback-on-failure' <<<"$comp" && grep -qx -- '--output' <<<"$comp" &&
  pass "completion offers deploy's flags" || fail "deploy flags: $comp"

# Upgrading: neither `plugin update` nor installing over works on Helm 4.2.4 (README).
expect_refused_keep() {
  local name=$1 msg=$2; shift 2
  if out=$("$@" 2>&1); then fail "$name: $* succeeded: $out"
  elif [[ $out != *"$msg"* ]]; then fail "$name: expected \"$msg\", got: $out"
  else pass "$name ($msg)"; fi
}
expect_refused_keep "helm plugin update refuses a URL install" "cannot get information about plugin source" \
  "$helm" plugin update hooks
expect_refused_keep "installing over an installed version is refused" "plugin already exists" \
  "$helm" plugin install "$url/ok/$tgz" --keyring "$tmp/pubring.gpg"
uninstall "URL"

expect_refused "tampered tarball refused" "sha256 sum does not match" \
  "$helm" plugin install "$url/tampered/$tgz" --keyring "$tmp/pubring.gpg"
expect_refused "other signer refused" "signature made by unknown entity" \
  "$helm" plugin install "$url/other/$tgz" --keyring "$tmp/pubring.gpg"
expect_refused "missing .prov refused" "no provenance file" \
  "$helm" plugin install "$url/noprov/$tgz" --keyring "$tmp/pubring.gpg"

# --- OCI: pushed by the release, installed by tag and digest, mirrored with oras copy ---
reg=$("$root/testbed/registry.sh" up "$tmp/registry")
KEY=$fpr OUT=$tmp/rel3 OCI=$reg/plugins/hooks PLAIN_HTTP=1 ORAS=$oras SOURCE_URL=https://example.invalid/helm-hooks \
  "$root/scripts/release.sh" "$version" >/dev/null 2>&1 && pass "release pushes to OCI" || fail "release to OCI"
expect_ok "install by oci:// tag, verified" \
  "$helm" plugin install "oci://$reg/plugins/hooks:$version" --plain-http --keyring "$tmp/pubring.gpg"
[ "$(installed_version)" = "$version" ] && pass "OCI install is $version" || fail "OCI install: $("$helm" plugin list 2>&1)"
"$helm" plugin list | grep -Eq '^hooks\b.*https://example.invalid/helm-hooks' &&
  pass "SOURCE_URL is the plugin's SOURCE" || fail "no sourceURL: $("$helm" plugin list 2>&1)"
uninstall "OCI tag"
digest=$("$oras" resolve --plain-http "$reg/plugins/hooks:$version")
expect_ok "install by oci:// digest, verified" \
  "$helm" plugin install "oci://$reg/plugins/hooks@$digest" --plain-http --keyring "$tmp/pubring.gpg"
uninstall "OCI digest"
expect_ok "oras copy into a mirror" "$oras" copy --from-plain-http --to-plain-http \
  "$reg/plugins/hooks:$version" "$reg/mirror/team/hooks:$version"
expect_ok "install from the mirror, verified" \
  "$helm" plugin install "oci://$reg/mirror/team/hooks:$version" --plain-http --keyring "$tmp/pubring.gpg"
uninstall "mirror"

# --- upgrade: a newer release (version bumped in a copy of the tree) replaces the old one ---
next=${version%.*}.$((${version##*.} + 1))
mkdir -p "$tmp/next/scripts" "$tmp/next/dist"
cp "$root/scripts/release.sh" "$tmp/next/scripts/"
cp -R "$root/dist/hooks" "$tmp/next/dist/"
sed "s/^version: .*/version: $next/" "$root/plugin.yaml" | tee "$tmp/next/plugin.yaml" >"$tmp/next/dist/hooks/plugin.yaml"
sed "/^\[package\]/,/^\[/s/^version = .*/version = \"$next\"/" "$root/Cargo.toml" >"$tmp/next/Cargo.toml"
KEY=$fpr OCI=$reg/plugins/hooks PLAIN_HTTP=1 ORAS=$oras SOURCE_DATE_EPOCH=0 \
  "$tmp/next/scripts/release.sh" "$next" >/dev/null 2>&1 && pass "release $next" || fail "release $next"
"$helm" plugin install "oci://$reg/plugins/hooks:$version" --plain-http --keyring "$tmp/pubring.gpg" >/dev/null
"$helm" plugin uninstall hooks >/dev/null
expect_ok "upgrade: install $next after uninstalling $version" \
  "$helm" plugin install "oci://$reg/plugins/hooks:$next" --plain-http --keyring "$tmp/pubring.gpg"
[ "$(installed_version)" = "$next" ] && pass "upgraded to $next" || fail "after upgrade: $("$helm" plugin list 2>&1)"
uninstall "upgrade"

if [ "$failures" -gt 0 ]; then
  echo "e2e-dist: $failures check(s) failed" >&2
  exit 1
fi
echo "e2e-dist: all checks passed"
