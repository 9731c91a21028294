#!/usr/bin/env bash
# The Debian packages the bed needs beyond the toolchains (`make tools` runs this first):
# the real node's container runtime, network plugins and what its images are built from
# (testbed/realnode.sh), and PostgreSQL for the HELM_DRIVER=sql suite (testbed/postgres.sh).
# Only what is missing is installed; a machine that has them all is not touched.
set -euo pipefail

need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for p in containerd runc containernetworking-plugins busybox-static iproute2 openssl gcc libc6-dev; do
  have "$p" || need+=("$p")
done
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ ${#need[@]} -gt 0 ] || exit 0
echo "packages.sh: installing ${need[*]}" >&2
sudo=$([ "$(id -u)" = 0 ] || echo sudo)
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
# Debian starts containerd as a service where it can; the bed runs its own. A containerd
# that was installed just now is stopped again (one the machine had is left alone).
if [[ " ${need[*]} " == *" containerd "* ]] && command -v systemctl >/dev/null &&
    systemctl is-active -q containerd 2>/dev/null; then
  $sudo systemctl disable --now containerd >/dev/null 2>&1 || true
fi
