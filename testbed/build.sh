#!/usr/bin/env bash
# Builds the pinned upstream tools the end-to-end tests run against: Helm 4,
# the Kubernetes control plane, etcd and kwok, all from the Go module proxy.
# Each binary is stamped with the version it was built at; a binary whose stamp
# matches is reused, so a warm run costs nothing.
#
# Usage: testbed/build.sh [helm|helm_host|kube|kubelet|pause|etcd|kwok|podlogs|provisioner|oracle|toxiproxy|registry|oras|nelm ...]
#        (default: all but nelm, which only scripts/bench-nelm.sh needs)
# Env:   HOOKS_CACHE  cache folder (default: ~/.cache/helm-hooks, testbed/versions.sh)
#        HOOKS_PAIR   compat: the previous Helm and Kubernetes (testbed/versions.sh)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=testbed/versions.sh
. "$here/versions.sh"
bin="$HOOKS_CACHE/bin"
mkdir -p "$bin" "$HOOKS_CACHE/stamps" "$HOOKS_CACHE/timings"
export CGO_ENABLED=0 GOFLAGS=-trimpath GOTOOLCHAIN=local

fresh() { [ -x "$bin/$1" ] && [ "$(cat "$HOOKS_CACHE/stamps/$1" 2>/dev/null)" = "$2" ]; }
stamp() { echo "$2" >"$HOOKS_CACHE/stamps/$1"; }

# Runs one build step, recording its wall time and peak RSS for docs/testing.md.
timed() {
  local name=$1; shift
  local start=$SECONDS
  echo ">> building $name" >&2
  if command -v /usr/bin/time >/dev/null; then
    /usr/bin/time -f "%M" -o "$HOOKS_CACHE/timings/$name.rss" "$@"
  else
    "$@"
  fi
  echo "$((SECONDS - start))" >"$HOOKS_CACHE/timings/$name.secs"
  echo ">> built $name in $((SECONDS - start))s" >&2
}

build_helm() {
  fresh helm "$HELM_VERSION" && return
  timed helm env GOBIN="$bin" go install \
    -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v4/cmd/helm@$HELM_VERSION"
  stamp helm "$HELM_VERSION"
}

# -- helm-host: Helm with testbed/helm-patches applied (docs/hip-host-functions.md) ----------
# The pinned source from the module cache, made a git repository of its own and the patches
# applied as commits with `git am`: a patch that does not apply stops the build and is named.
# (A bare `git apply` inside another work tree — a cache in a checkout — applies paths
# relative to that tree's top and skips the rest silently: Helm came out unpatched.)
# Stamped with a hash of the patches, so a changed patch rebuilds it. Two test runs follow,
# against the patched tree, each failing the build if a test fails:
#  1. the Go tests the patches add, which must run (a selection that matches nothing fails);
#     they are in internal/plugin (22) and pkg/cmd (2: TestPluginReleaseStorage*);
#  2. Helm's own unit tests, all of them, of every package the patches touch: the folders of
#     the .go files the patches change (git diff from the module source's commit; today
#     internal/plugin and pkg/cmd). The module zip keeps no file modes, so the scripts in
#     those packages' testdata (files that start with "#!") are made executable again, as
#     Helm's git tree has them; and it leaves out folders that hold a go.mod of their own,
#     among them internal/plugin/testdata/src/extismv1-test, the Wasm plugin that
#     TestRuntimeExtismV1InvokePlugin builds with make: that one test is skipped while the
#     folder is missing. HELM_* and KUBECONFIG are unset for it, so that the caller's Helm
#     settings do not reach the tests.
# `make tools` then loads the host build of the plugin into the result (Makefile:
# check-helm-host), which fails on an unpatched Helm.
helm_host_tests='TestBuildHostFunctions|TestCallError|TestExtismV1|TestKubeRequest|TestReleaseStorage|TestPrototypePluginManager|TestPluginReleaseStorage'
helm_host_test_pkgs=(./internal/plugin/ ./pkg/cmd/)
helm_host_min_tests=${HELM_HOST_MIN_TESTS:-24}

# Helm's own tests of the packages the patches touch (2. above), in the patched tree (the
# current folder); timed apart from the preparation.
helm_host_upstream_tests() {
  local pkgs=() skip=() f v
  mapfile -t pkgs < <(git diff --name-only "$(git rev-list --max-parents=0 HEAD)" HEAD -- '*.go' |
    xargs -r -n1 dirname | sort -u | sed 's|^|./|; s|$|/|')
  [ ${#pkgs[@]} -gt 0 ] || { echo "helm-host: found no Go package that testbed/helm-patches change" >&2; return 1; }
  echo ">> helm-host: Helm's own tests of ${pkgs[*]}"
  [ -e internal/plugin/testdata/src/extismv1-test ] ||
    echo ">> helm-host: left out: TestRuntimeExtismV1InvokePlugin (the module zip has no testdata/src/extismv1-test)"
  while IFS= read -r -d '' f; do
    [ "$(head -c2 "$f")" != '#!' ] || chmod +x "$f"
  done < <(for v in "${pkgs[@]}"; do [ ! -d "$v/testdata" ] || find "$v/testdata" -type f -print0; done)
  [ -e internal/plugin/testdata/src/extismv1-test ] || skip=(-skip '^TestRuntimeExtismV1InvokePlugin$')
  for v in $(compgen -e); do case $v in HELM_*|KUBECONFIG) unset "$v" ;; esac; done
  timed helm-host-upstream-test go test -count=1 -v "${skip[@]}" "${pkgs[@]}"
}

build_helm_host() {
  local h src dir p n u
  [ "${HOOKS_PAIR:-}" = compat ] && { echo "helm-host: testbed/helm-patches are for $HELM_VERSION of the current pair only" >&2; return 1; }
  h=$(cat "$here"/helm-patches/*.patch | sha256sum | cut -c1-16)
  fresh helm-host "$HELM_VERSION+$h" && return
  src=$(go mod download -json "helm.sh/helm/v4@$HELM_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { echo "go mod download gave no source for helm $HELM_VERSION" >&2; return 1; }
  dir="$HOOKS_CACHE/src/helm-host"
  rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && cp -r "$src" "$dir" && chmod -R u+w "$dir"
  (
    cd "$dir"
    # "@0" alone is no date to git 2.39 ("invalid date format"); with a zone it is.
    export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_DATE='@0 +0000' GIT_COMMITTER_DATE='@0 +0000'
    export GIT_AUTHOR_NAME=helm-hooks GIT_AUTHOR_EMAIL=build@helm-hooks.invalid
    export GIT_COMMITTER_NAME=helm-hooks GIT_COMMITTER_EMAIL=build@helm-hooks.invalid
    git init -q . && git add -A && git commit -q -m "helm $HELM_VERSION (module source)" || {
      echo "helm-host: could not make a git repository of the helm $HELM_VERSION source in $dir" >&2
      exit 1
    }
    for p in "$here"/helm-patches/*.patch; do
      git am -q --3way "$p" >/dev/null 2>&1 || {
        echo "testbed/helm-patches/${p##*/} does not apply to helm $HELM_VERSION:" >&2
        git am --show-current-patch=diff >/dev/null 2>&1 && git am --abort >/dev/null 2>&1
        git apply --check -v "$p" 2>&1 | grep -v '^Checking' >&2 || true
        exit 1
      }
    done
  ) || return 1
  (cd "$dir" && timed helm-host go build -o "$bin/helm-host" \
    -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$HELM_VERSION" ./cmd/helm)
  (cd "$dir" && timed helm-host-test go test -count=1 -v -run "$helm_host_tests" "${helm_host_test_pkgs[@]}") \
    >"$HOOKS_CACHE/timings/helm-host-test.log" 2>&1 || {
    tail -40 "$HOOKS_CACHE/timings/helm-host-test.log" >&2
    echo "the patches' Go tests failed (log: $HOOKS_CACHE/timings/helm-host-test.log)" >&2
    return 1
  }
  n=$(grep -c '^--- PASS' "$HOOKS_CACHE/timings/helm-host-test.log" || true)
  [ "$n" -ge "$helm_host_min_tests" ] || {
    echo "the patches' Go tests ran $n tests, fewer than $helm_host_min_tests: is testbed/helm-patches applied? (log: $HOOKS_CACHE/timings/helm-host-test.log)" >&2
    return 1
  }
  echo ">> helm-host: $n patch tests passed" >&2
  (cd "$dir" && helm_host_upstream_tests) \
    >"$HOOKS_CACHE/timings/helm-host-upstream-test.log" 2>&1 || {
    grep -E '^(--- FAIL|FAIL|ok|panic)' "$HOOKS_CACHE/timings/helm-host-upstream-test.log" | tail -40 >&2
    echo "Helm's own tests of the packages testbed/helm-patches touch failed on the patched tree (log: $HOOKS_CACHE/timings/helm-host-upstream-test.log)" >&2
    return 1
  }
  u=$(grep -c '^--- PASS' "$HOOKS_CACHE/timings/helm-host-upstream-test.log" || true)
  [ "$u" -gt "$n" ] || {
    echo "Helm's own tests of the touched packages passed $u tests, no more than the $n patch tests: did they run? (log: $HOOKS_CACHE/timings/helm-host-upstream-test.log)" >&2
    return 1
  }
  echo ">> helm-host: $u of Helm's own tests of the touched packages passed ($(grep -c '^--- SKIP' "$HOOKS_CACHE/timings/helm-host-upstream-test.log" || true) skipped by Helm, $(grep -c '^>> helm-host: left out' "$HOOKS_CACHE/timings/helm-host-upstream-test.log" || true) left out) in $(cat "$HOOKS_CACHE/timings/helm-host-upstream-test.secs") s" >&2
  stamp helm-host "$HELM_VERSION+$h"
}

# The module file that pins MODULE at VERSION in DIR: go.mod for the current pair, else the
# go.VERSION.mod kept beside it for the previous one (with its go.VERSION.sum).
modfile() {
  local d=$1 m=$2 v=$3 f
  for f in "$d/go.mod" "$d/go.$v.mod"; do
    [ -f "$f" ] && grep -Eq "^(require )?[[:space:]]*$m $v( //.*)?\$" "$f" && { echo "$f"; return; }
  done
  echo "no module file in $d requires $m $v" >&2
  return 1
}

kube_bins="kube-apiserver kube-controller-manager kube-scheduler kubectl"

build_kube() {
  local c all=1
  for c in $kube_bins; do
    fresh "$c" "$KUBE_VERSION" || all=0
  done
  [ "$all" = 1 ] && return
  local v=k8s.io/component-base/version minor=${KUBE_VERSION#v1.}
  minor=${minor%%.*}
  (cd "$here/k8sbin" && timed kube go build -modfile "$(modfile "$here/k8sbin" k8s.io/kubernetes "$KUBE_VERSION")" -o "$bin/" \
    -ldflags "-s -w -X $v.gitVersion=$KUBE_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean" \
    ./kube-apiserver ./kube-controller-manager ./kube-scheduler ./kubectl)
  for c in $kube_bins; do stamp "$c" "$KUBE_VERSION"; done
}

# The real node's kubelet (testbed/realnode.sh): the current pair only, whose go.mod has the
# kubelet's few extra modules. A build of its own, so the compat pair's control plane does
# not need them.
build_kubelet() {
  [ "${HOOKS_PAIR:-}" = compat ] && { echo "kubelet: the real node runs with the current pair only" >&2; return 0; }
  fresh kubelet "$KUBE_VERSION" && return
  local v=k8s.io/component-base/version minor=${KUBE_VERSION#v1.}
  minor=${minor%%.*}
  (cd "$here/k8sbin" && timed kubelet go build -o "$bin/" \
    -ldflags "-s -w -X $v.gitVersion=$KUBE_VERSION -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean" \
    ./kubelet)
  stamp kubelet "$KUBE_VERSION"
}

# The real node's pod sandbox process (testbed/realnode/pause.c): a static C program, since
# no distribution packages the pause image. Stamped with a hash of its source.
build_pause() {
  local h
  h=$(sha256sum "$here/realnode/pause.c" | cut -c1-16)
  fresh pause "$h" && return
  timed pause gcc -static -Os -o "$bin/pause" "$here/realnode/pause.c"
  stamp pause "$h"
}

build_etcd() {
  fresh etcd "$ETCD_VERSION" && return
  (cd "$here/etcdbin" && timed etcd go build -modfile "$(modfile "$here/etcdbin" go.etcd.io/etcd/server/v3 "$ETCD_VERSION")" -ldflags "-s -w" -o "$bin/etcd" .)
  stamp etcd "$ETCD_VERSION"
}

# kwokctl as released; kwok (the node agent, which serves pod logs) from the same module
# source with testbed/kwok-patches/*.patch applied, stamped with the version and a hash of
# the patches, so that a changed patch rebuilds it (why: the first patch's header).
build_kwok() {
  if ! fresh kwokctl "$KWOK_VERSION"; then
    timed kwokctl env GOBIN="$bin" go install -ldflags "-s -w" "sigs.k8s.io/kwok/cmd/kwokctl@$KWOK_VERSION"
    stamp kwokctl "$KWOK_VERSION"
  fi
  local h src tmp p
  h="$KWOK_VERSION+$(cat "$here"/kwok-patches/*.patch | sha256sum | cut -c1-16)"
  fresh kwok "$h" && return
  src=$(go mod download -json "sigs.k8s.io/kwok@$KWOK_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { echo "go mod download found no source of sigs.k8s.io/kwok@$KWOK_VERSION" >&2; return 1; }
  tmp=$(mktemp -d)
  cp -r "$src/." "$tmp" && chmod -R u+w "$tmp"
  for p in "$here"/kwok-patches/*.patch; do
    # (git apply, not patch(1): git is already needed, patch may be missing on a fresh machine.)
    (cd "$tmp" && git apply -p1 "$p") || { echo "$p does not apply to kwok $KWOK_VERSION" >&2; rm -rf "$tmp"; return 1; }
  done
  (cd "$tmp" && timed kwok go build -buildvcs=false -ldflags "-s -w" -o "$bin/kwok" ./cmd/kwok) || { rm -rf "$tmp"; return 1; }
  rm -rf "$tmp"
  stamp kwok "$h"
}

# The bed's own log helper (testbed/podlogs): stamped with a hash of its sources.
build_podlogs() {
  local h
  h=$(cd "$here/podlogs" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
  fresh podlogs "$h" && return
  (cd "$here/podlogs" && timed podlogs go build -ldflags "-s -w" -o "$bin/podlogs" .)
  stamp podlogs "$h"
}

# Helm's own readers and writers as an oracle for tests/oracle.rs (testbed/oracle, issue 46),
# built against the pinned Helm module: stamped by a hash of its sources.
build_oracle() {
  local h
  h=$(cd "$here/oracle" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
  fresh oracle "$h" && return
  grep -q "helm.sh/helm/v4 $HELM_VERSION\$" "$here/oracle/go.mod" || {
    echo "testbed/oracle/go.mod must require helm.sh/helm/v4 $HELM_VERSION (testbed/versions.sh)" >&2; return 1; }
  (cd "$here/oracle" && timed oracle go build -ldflags "-s -w" -o "$bin/oracle" .)
  stamp oracle "$h"
}

# The bed's volume provisioner (testbed/provisioner): stamped by a hash of its sources.
build_provisioner() {
  local h
  h=$(cd "$here/provisioner" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
  fresh provisioner "$h" && return
  (cd "$here/provisioner" && timed provisioner go build -ldflags "-s -w" -o "$bin/provisioner" .)
  stamp provisioner "$h"
}

# Nelm (testbed/nelmbin), the peer of scripts/bench-nelm.sh; not part of the default build.
build_nelm() {
  fresh nelm "$NELM_VERSION" && return
  grep -q "^[[:space:]]*github.com/werf/nelm $NELM_VERSION\b" "$here/nelmbin/go.mod" || {
    echo "testbed/nelmbin/go.mod does not require github.com/werf/nelm $NELM_VERSION" >&2
    return 1
  }
  (cd "$here/nelmbin" && timed nelm go build -o "$bin/nelm" \
    -ldflags "-s -w -X github.com/werf/nelm/pkg/common.Version=${NELM_VERSION#v}" \
    github.com/werf/nelm/cmd/nelm)
  stamp nelm "$NELM_VERSION"
}

# Toxiproxy, the fault-injecting TCP proxy of tests/e2e/faults.rs (loopback only).
build_toxiproxy() {
  fresh toxiproxy-server "$TOXIPROXY_VERSION" && return
  local tmp
  tmp=$(mktemp -d)
  timed toxiproxy env GOBIN="$tmp" go install -ldflags "-s -w" \
    "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION"
  mv "$tmp/server" "$bin/toxiproxy-server"
  rm -rf "$tmp"
  stamp toxiproxy-server "$TOXIPROXY_VERSION"
}

# Distribution (issue 12): the OCI registry and oras of scripts/e2e-dist.sh.
build_registry() {
  fresh registry "$REGISTRY_VERSION" && return
  timed registry env GOBIN="$bin" go install -ldflags "-s -w" \
    "github.com/distribution/distribution/v3/cmd/registry@$REGISTRY_VERSION"
  stamp registry "$REGISTRY_VERSION"
}

build_oras() {
  fresh oras "$ORAS_VERSION" && return
  timed oras env GOBIN="$bin" go install -ldflags "-s -w" "oras.land/oras/cmd/oras@$ORAS_VERSION"
  stamp oras "$ORAS_VERSION"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(helm helm_host etcd kwok kube kubelet pause podlogs provisioner oracle toxiproxy registry oras)
for t in "${targets[@]}"; do "build_$t"; done
