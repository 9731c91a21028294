#!/usr/bin/env bash
# Where a CRD-heavy chart's time goes, for docs/benchmarks.md ("CRD-heavy charts on the
# stock build"). On the test bed (started if down; left running), RUNS times each:
#  1. the API server's own cost of rook-ceph's 26 CRDs (testdata/charts/real/rook-ceph,
#     `helm template` of the chart, the CRDs only): each applied server-side by curl (one
#     PATCH of the CRD as JSON, field manager `bench`, as the plugin sends it), one after
#     another (one request at a time, as the stock build's transport sends them), then all
#     26 at once (as stock Helm applies a kind's objects), each on a cluster without them;
#  2. traefik 28.3.0's 16 CRDs of crds/ (testdata/charts/real/traefik) through the
#     README's first install, `{ helm show crds CHART; helm upgrade --install …
#     --dry-run=client -o json; } | helm hooks deploy -` with HELM_HOOKS_TRACE=1 (the
#     plugin's timeline: "apply 16 CRDs of crds/", "wait for … Established"), beside stock
#     `helm install --wait`, each on a cluster without the CRDs.
# rook-ceph through stock Helm and the README's pipe is scripts/bench-real.sh's
# (CHARTS=rook-ceph).
#
# Usage: scripts/bench/crds.sh   Environment: RUNS (3), HELM (the bed's), HOOKS_PLUGIN_DIR
#   (default: build dist/hooks), OUT (default: a new folder under /tmp, kept).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d /tmp/bench-crds.XXXXXX)}
mkdir -p "$OUT"
run_id=$(date +%s%N | tail -c 6)

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
# shellcheck source=scripts/bench/helm_home.sh
. "$root/scripts/bench/helm_home.sh"
bench_home "bc-$run_id-"
"$HELM" hooks version >/dev/null
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh

# 1. rook-ceph's CRDs, one JSON file each, named by the CRD.
mkdir -p "$work/rook"
"$HELM" template r "$root/testdata/charts/real/rook-ceph" | python3 -c '
import json, sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and d.get("kind") == "CustomResourceDefinition":
        name = d["metadata"]["name"]
        with open(f"{sys.argv[1]}/{name}", "w") as f:
            json.dump(d, f)
' "$work/rook"
rook_names=$(ls "$work/rook")
gone() { # CRD names...
  # A CRD deleted soon after it was made can stay Terminating for minutes: its finalizer
  # fails "could not list instances: storage is (re)initializing" and backs off (seen here
  # even after Established and 5 s). These CRDs have no instances: after 20 s, the
  # finalizer of one stuck so is cleared, which is all it would have done.
  local n
  # shellcheck disable=SC2086
  kubectl delete crd --ignore-not-found --wait=false $* >/dev/null
  for _ in $(seq 20); do
    # shellcheck disable=SC2086
    n=$(kubectl get crd --ignore-not-found -o name $* 2>/dev/null | wc -l)
    [ "$n" = 0 ] && return 0
    sleep 1
  done
  # shellcheck disable=SC2086
  for c in $(kubectl get crd --ignore-not-found -o name $* 2>/dev/null); do
    kubectl patch "$c" --type=merge -p '{"metadata":{"finalizers":[]}}' >/dev/null
  done
  # shellcheck disable=SC2086
  kubectl wait --for=delete --timeout=60s $(printf 'crd/%s ' $*) >/dev/null 2>&1 || true
}
apply() { # CRD name: its server-side apply, the status code checked
  local code
  code=$(curl -sS -o /dev/null -w '%{http_code}' --cacert "$HELM_KUBECAFILE" -H "Authorization: Bearer $HELM_KUBETOKEN" \
    -X PATCH -H 'Content-Type: application/apply-patch+yaml' --data-binary "@$work/rook/$1" \
    "$HELM_KUBEAPISERVER/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$1?fieldManager=bench&fieldValidation=Strict")
  case $code in 200 | 201) ;; *) echo "apply $1: HTTP $code" >&2; return 1 ;; esac
}
echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)  helm: $("$HELM" version --short)  load: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/summary.txt"
echo "== rook-ceph: $(wc -w <<<"$rook_names") CRDs, server-side apply by curl" | tee -a "$OUT/summary.txt"
for run in $(seq "$RUNS"); do
  gone $rook_names
  t0=$(now)
  for n in $rook_names; do apply "$n"; done
  t1=$(now)
  gone $rook_names
  t2=$(now)
  for n in $rook_names; do apply "$n" & done
  wait
  t3=$(now)
  echo "   run $run: one after another $(elapsed "$t0" "$t1") s, all at once $(elapsed "$t2" "$t3") s (load $(cut -d' ' -f1 /proc/loadavg))" | tee -a "$OUT/summary.txt"
done
gone $rook_names

# 2. traefik's crds/ through the README's first install, beside stock helm install --wait.
# Like with like: --wait is the watcher strategy, under which stock awaits its crds/ until
# Established in every pinned Helm (4.2.4 to 4.3.2); the plugin also waits for discovery to
# serve their kinds, which counts against it (docs/design.md, "Helm v4.3.1 → v4.3.2").
traefik=$root/testdata/charts/real/traefik
"$HELM" show crds "$traefik" >"$work/traefik-crds.yaml"
traefik_names=$(python3 -c '
import sys, yaml
print(" ".join(d["metadata"]["name"] for d in yaml.safe_load_all(open(sys.argv[1])) if d))' "$work/traefik-crds.yaml")
echo "== traefik: $(wc -w <<<"$traefik_names") CRDs of crds/" | tee -a "$OUT/summary.txt"
conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")
for run in $(seq "$RUNS"); do
  for side in stock pipe; do
    gone $traefik_names
    ns=bc-$run_id-$side-$run
    kubectl create namespace "$ns" >/dev/null
    log=$OUT/traefik-$side-$run.log
    t0=$(now)
    if [ "$side" = stock ]; then
      "$HELM" install r "$traefik" -n "$ns" --wait --timeout 3m >"$log" 2>&1
    else
      { cat "$work/traefik-crds.yaml"; "$HELM" upgrade --install r "$traefik" -n "$ns" --dry-run=client -o json; } |
        HELM_HOOKS_TRACE=1 "$HELM" hooks deploy - -n "$ns" --timeout 3m "${conn[@]}" >"$log" 2>&1
    fi
    t1=$(now)
    echo "$t0" >"$log.start"
    eval "${side}_t=$(elapsed "$t0" "$t1")"
    "$HELM" uninstall r -n "$ns" --wait --timeout 2m >/dev/null 2>&1 || true
    kubectl delete ingressclass r-traefik --ignore-not-found >/dev/null 2>&1 || true
    kubectl delete clusterrole,clusterrolebinding r-traefik-"$ns" --ignore-not-found >/dev/null 2>&1 || true
    kubectl delete namespace "$ns" --wait=true >/dev/null 2>&1 || true
  done
  # shellcheck disable=SC2154
  echo "   run $run: stock ${stock_t} s, pipe ${pipe_t} s" | tee -a "$OUT/summary.txt"
  f=$OUT/traefik-pipe-$run.log
  echo "   pipe $run: $(python3 scripts/bench/profile.py plugin "$f" "$(cat "$f.start")"); $(grep -o 'apply 16 CRDs of crds/ ([0-9]* ms)\|wait for [0-9]* CRDs to be Established ([0-9]* ms)' "$f" | tr '\n' ' ')" |
    tee -a "$OUT/summary.txt"
done
gone $traefik_names
echo "outputs in $OUT"
