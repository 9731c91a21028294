# Pinned versions of everything the test bed builds, and where it caches them.
# Sourced by the test-bed scripts; change a version here and the next build
# rebuilds that component.
#
# Two pairs of Helm and Kubernetes are supported (README, "Supported versions"):
#   current (default)   what `make test` runs against
#   HOOKS_PAIR=compat   the previous pair, for `make e2e-compat` (its own cache folder)
# To look for newer releases on the Go module proxy:
#   go list -m -versions helm.sh/helm/v4 k8s.io/kubernetes go.etcd.io/etcd/server/v3 sigs.k8s.io/kwok
# Moving Kubernetes: keep the old testbed/k8sbin/go.mod as go.<old version>.mod (and .sum), then
# in testbed/k8sbin `sed` the k8s.io versions in go.mod to the new one and `go mod tidy`
# (likewise etcd in testbed/etcdbin). A Helm move needs testbed/helm-patches rebased.
HELM_VERSION=v4.3.2
KUBE_VERSION=v1.37.2
# Kubernetes 1.37's own choice (hack/lib/etcd.sh: 3.7.0), at its newest patch release.
ETCD_VERSION=v3.7.3
KWOK_VERSION=v0.8.0
if [ "${HOOKS_PAIR:-}" = compat ]; then
  HELM_VERSION=v4.2.4
  KUBE_VERSION=v1.36.1
  ETCD_VERSION=v3.6.10
fi
# The fault proxy of tests/e2e/faults.rs: v2.5.0 is the newest the Go module proxy serves.
TOXIPROXY_VERSION=v2.5.0
# Nelm, for scripts/bench-nelm.sh only (built on request: testbed/build.sh nelm). v1.24.3 is
# the newest tag whose dependencies the Go module proxy serves: of the later tags it serves
# v1.25.3, v1.27.1 and v1.28.0 only, and those need kubedog
# v0.13.1-0.20260616105957-2c00b08fb99e, which it refuses (403). testbed/nelmbin/go.mod
# must require the same version.
NELM_VERSION=v1.24.3
# Distribution (issue 12): the loopback OCI registry of scripts/e2e-dist.sh (CNCF
# distribution, cmd/registry) and the OCI client that pushes and mirrors the plugin.
REGISTRY_VERSION=v3.1.2
ORAS_VERSION=v1.3.6
# The cache: a per-user folder outside any checkout, so that every clone (and CI, which
# takes the README's path with nothing set) shares warm builds. The compat pair keeps its
# builds and its bed in a folder of its own below it.
HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
if [ "${HOOKS_PAIR:-}" = compat ] && [ "${HOOKS_CACHE##*/}" != compat ]; then
  HOOKS_CACHE=$HOOKS_CACHE/compat
fi
export HOOKS_CACHE
