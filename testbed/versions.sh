# Pinned versions of everything the test bed builds, and where it caches them.
# Sourced by the test-bed scripts; change a version here and the next build
# rebuilds that component.
HELM_VERSION=v4.2.4
KUBE_VERSION=v1.36.1
ETCD_VERSION=v3.6.10
KWOK_VERSION=v0.8.0
# The fault proxy of tests/e2e_faults.rs: v2.5.0 is the newest the Go module proxy serves.
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
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOOKS_CACHE=${HOOKS_CACHE:-$root/.cache}
export HOOKS_CACHE
