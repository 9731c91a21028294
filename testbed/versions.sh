# Pinned versions of everything the test bed builds, and where it caches them.
# Sourced by the test-bed scripts; change a version here and the next build
# rebuilds that component.
HELM_VERSION=v4.2.4
KUBE_VERSION=v1.36.1
ETCD_VERSION=v3.6.10
KWOK_VERSION=v0.8.0
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOOKS_CACHE=${HOOKS_CACHE:-$root/.cache}
export HOOKS_CACHE
