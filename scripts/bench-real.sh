#!/usr/bin/env bash
# The public charts against stock Helm (issue 21; figures in docs/benchmarks.md, section
# "Public charts against stock Helm"), on the test bed (docs/testing.md). For each chart of
# testdata/charts/real that installs on the bed, RUNS times, alternating (stock first in odd
# runs, the pipe first in even ones, so that drifting load on a shared machine hits both),
# each in a fresh namespace:
#  - stock  `helm install R CHART --wait --timeout 5m`;
#  - pipe   the README's `helm upgrade --install R CHART --dry-run=server
#           --disable-openapi-validation -o json | helm hooks deploy -` (dist/hooks,
#           installed into a temporary HELM_DATA_HOME), timed as a whole, the dry-run's
#           own end stamped on the side;
# then the median of each, their ratio, and whether both left the same objects (the
# stored manifest's and hooks' Kind/name, every one live). One more run of each through
# a request-counting proxy (scripts/bench/count_proxy.py in front of `kubectl proxy`)
# gives the API requests, and a timeline of each request (`requests-*.log`); every pipe
# run writes the plugin's own timeline (HELM_HOOKS_TRACE=1: each request and step, on
# stderr, in `<chart>-pipe-<run>.log`): scripts/bench/profile.py reads from it where the
# plugin's time went (Helm's start of it, the wait for the dry-run, parsing, each step),
# and from the counted stock run's request log where stock Helm's went. Last, the API
# budget while waiting: a pre-install hook Job of 1 s and of 61 s through each side,
# counted; the difference is a minute of waiting.
#
# Charts (CHARTS): ingress-nginx (IngressClass renamed <release>-nginx), cert-manager
# (crds.enabled=true), vault, argo-cd, prometheus (its two volumes on, bound by the bed's
# provisioner), helm-create (`helm create`'s chart) — the charts tests/e2e/real.rs
# installs; sentry too when named (its serial hooks take minutes); when named, postgresql
# (bitnami 17.1.0, a StatefulSet's volume; airflow-postgresql: airflow's 13.2.24), nats
# (JetStream on a volume), airflow (its database's volume and hooks; fixed keys) and
# rook-ceph (26 templated CRDs; docs/benchmarks.md, "CRD-heavy charts"). Not on the bed:
# kube-prometheus-stack (its CRDs come from a subchart's crds/ folder, which
# --dry-run=server cannot render against), ark (stock Helm 4 cannot install it either).
# Charts with cluster-scoped objects are
# uninstalled after every run and what a keep policy left is deleted; CRDs with fixed
# names (cert-manager's, argo-cd's) are awaited free of other releases first.
#
# Usage: scripts/bench-real.sh   (or: make bench-real, which also stops the bed after)
# Starts the bed if it is down and leaves it running.
# Environment: CHARTS, RUNS (3), HELM (the bed's), HOOKS_PLUGIN_DIR (a built plugin
#   directory; default: build dist/hooks), OUT (folder for every output; default: a new
#   folder under /tmp, kept), COUNT=0 skips the counted runs, BUDGET=0 the minute of
#   waiting (below), KEEP=1 keeps the namespaces, STOCK_ARGS adds flags to stock's install
#   (--disable-openapi-validation: stock Helm skipping the same step as the pipe's dry-run),
#   FRESH_BED=1 starts a fresh bed before each side's run (about 20 s each; issue 48's
#   measure: no side inherits the other's watch caches, namespaces or controllers' queues).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
CHARTS=${CHARTS:-ingress-nginx cert-manager vault argo-cd prometheus helm-create}
RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d /tmp/bench-real.XXXXXX)}
mkdir -p "$OUT"
run_id=$(date +%s%N | tail -c 6)
REL=hb$run_id

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }

# shellcheck source=scripts/bench/helm_home.sh
. "$root/scripts/bench/helm_home.sh"
bench_home "br-$run_id-"
# Helm compiles plugin.wasm on its first load and caches it: not part of any timing.
"$HELM" hooks version >/dev/null
plugin_conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh
# shellcheck source=scripts/bench/sweep.sh
. scripts/bench/sweep.sh

# Per chart: its folder, values, and whether it has cluster-scoped objects.
setup_chart() {
  args=() clustered=0 crds=""
  case $1 in
    ingress-nginx) path=$root/testdata/charts/real/ingress-nginx clustered=1
      args=(--set "controller.ingressClassResource.name=$REL-nginx") ;;
    cert-manager) path=$root/testdata/charts/real/cert-manager clustered=1 crds='cert-manager.io$'
      args=(--set crds.enabled=true) ;;
    vault) path=$root/testdata/charts/real/vault clustered=1 ;;
    argo-cd) path=$root/testdata/charts/real/argo-cd clustered=1 crds='argoproj.io$' ;;
    prometheus) path=$root/testdata/charts/real/prometheus clustered=1 ;;
    rook-ceph) path=$root/testdata/charts/real/rook-ceph clustered=1 crds='ceph' ;;
    postgresql) path=$root/testdata/charts/real/postgresql ;;
    airflow-postgresql) path=$root/testdata/charts/real/airflow/charts/postgresql ;;
    nats) path=$root/testdata/charts/real/nats
      args=(--set config.jetstream.enabled=true) ;;
    airflow) path=$root/testdata/charts/real/airflow
      args=(--set fernetKey=aG9va3MtdGVzdC1mZXJuZXQta2V5LTMyLWJ5dGVzISE= --set webserverSecretKey=hooks-test
        --set jwtSecret=hooks-test --set apiSecretKey=hooks-test --set redis.password=hooks-test) ;;
    helm-create) path=$work/helm-create
      [ -d "$path" ] || "$HELM" create "$path" >/dev/null ;;
    sentry) path=$root/testdata/charts/real/sentry clustered=1
      args=(--set filestore.filesystem.persistence.enabled=false
        --set clickhouse.clickhouse.persistentVolumeClaim.enabled=false
        --set clickhouse.clickhouse.persistentVolumeClaim.dataPersistentVolume.enabled=false
        --set ingress.enabled=false --set sentry.existingSecret=sentry-key) ;;
    *) echo "unknown chart $1" >&2; return 1 ;;
  esac
}

fresh_ns() {
  local ns=br-$run_id-$1-$(date +%s%N | tail -c 5)
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$ns"
}

run_stock() { # ns log
  "$HELM" install "$REL" "$path" -n "$1" --wait --timeout 5m ${STOCK_ARGS:-} "${args[@]}" >"$2" 2>&1
}
# The README's pipe; the dry-run's end is stamped into $work/dry.end.
run_pipe() { # ns log [deploy connection flags...]
  local ns=$1 log=$2
  shift 2
  { local rc=0
    "$HELM" upgrade --install "$REL" "$path" -n "$ns" --dry-run=server --disable-openapi-validation -o json "${args[@]}" 2>"$log.dry" || rc=$?
    echo "$(now) $rc" >"$work/dry.end"; } |
    HELM_HOOKS_TRACE=1 "$HELM" hooks deploy - -n "$ns" --timeout 5m "$@" >"$log" 2>&1
}

# What the release stores (manifest and hooks), as sorted Kind/name, and whether each is live.
objects() { # ns
  { "$HELM" get manifest "$REL" -n "$1"; echo "---"; "$HELM" get hooks "$REL" -n "$1"; } 2>/dev/null |
    python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and "kind" in d:
        print(d["kind"] + "/" + d["metadata"]["name"])
' | sort
}
# Stored objects that are not live (hooks deleted by their policy excepted: stock and the
# plugin delete the same ones, checked by tests/e2e/real.rs).
missing() { # ns
  "$HELM" get manifest "$REL" -n "$1" 2>/dev/null | python3 -c '
import subprocess, sys, yaml
ns = sys.argv[1]
by_ns = {}
for d in yaml.safe_load_all(sys.stdin):
    if d and "kind" in d:
        by_ns.setdefault(d["metadata"].get("namespace", ns), []).append(d)
for n, docs in by_ns.items():
    r = subprocess.run(["kubectl", "get", "-n", n, "-f", "-", "-o", "name"], input=yaml.safe_dump_all(docs),
                       text=True, capture_output=True)
    sys.stdout.write(r.stderr)
' "$1"
}

uninstall() { # ns
  "$HELM" uninstall "$REL" -n "$1" --wait --timeout 2m >>"$OUT/uninstall.log" 2>&1 || true
  sweep_cluster "$1"
}
# Cluster-scoped objects (and kube-system Roles) of our namespace, or named after our release.
sweep_cluster() {
  sweep_release_cluster "$REL" "$1"
  settle "$1"
}
# Deletes a run's namespace and waits until it is gone: the namespace controller's deletes
# would otherwise load the bed during the next run, whichever side it is.
settle() { kubectl delete namespace "$1" --wait=true --timeout=120s >/dev/null 2>&1 || true; }
# CRDs with fixed names: wait until no one else's release holds them.
wait_crds_free() {
  [ -n "$crds" ] || return 0
  for _ in $(seq 300); do
    [ "$(kubectl get crd -o name 2>/dev/null | grep -c "$crds" || true)" = 0 ] && return 0
    sleep 1
  done
  return 1
}

# shellcheck source=scripts/bench/count-proxy.sh
. scripts/bench/count-proxy.sh
if [ "${COUNT:-1}" != 0 ]; then
  start_count_proxy
  # The counter logs each request: a second instance of it, with a log, for the timelines.
  python3 scripts/bench/count_proxy.py "$kport" "$work/count" "$work/requests.log" >"$work/cproxy2.out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/cproxy2.out" ] && break; sleep 0.1; done
  cport=$(head -1 "$work/cproxy2.out")
  sed -i "s/127.0.0.1:[0-9]*/127.0.0.1:$cport/" "$work/proxy.kubeconfig"
fi
via_proxy() { env -u HELM_KUBEAPISERVER -u HELM_KUBETOKEN -u HELM_KUBECAFILE KUBECONFIG="$work/proxy.kubeconfig" "$@"; }

{
  echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (+ changes)')  helm: $("$HELM" version --short)"
  echo "kubernetes: $(kubectl version -o json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')  runs: $RUNS (alternating)${STOCK_ARGS:+  stock: $STOCK_ARGS}"
} | tee "$OUT/summary.txt"

for chart in $CHARTS; do
  setup_chart "$chart"
  echo "== $chart" | tee -a "$OUT/summary.txt"
  stock_t=() pipe_t=() dry_t=()
  for run in $(seq "$RUNS"); do
    if [ $((run % 2)) = 1 ]; then order="stock pipe"; else order="pipe stock"; fi
    for side in $order; do
      if [ "${FRESH_BED:-0}" = 1 ]; then
        { testbed/cluster.sh down && testbed/cluster.sh up; } >/dev/null 2>&1
        eval "$(testbed/cluster.sh env)"
        plugin_conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")
      fi
      if ! wait_crds_free; then
        echo "   $side run $run: the CRDs stayed held by another release for 5 min; skipped" | tee -a "$OUT/summary.txt"
        continue
      fi
      ns=$(fresh_ns "${chart:0:6}-$side")
      log=$OUT/$chart-$side-$run.log
      t0=$(now)
      rc=0
      if [ "$side" = stock ]; then run_stock "$ns" "$log" || rc=$?; else run_pipe "$ns" "$log" "${plugin_conn[@]}" || rc=$?; fi
      t1=$(now)
      [ "$rc" = 0 ] || echo "   $side run $run FAILED (exit $rc; see $log)" | tee -a "$OUT/summary.txt"
      echo "$t0" >"$log.start"
      if [ "$side" = stock ]; then
        stock_t+=("$(elapsed "$t0" "$t1")")
        objects "$ns" >"$work/$chart-stock.objects" || true
      else
        pipe_t+=("$(elapsed "$t0" "$t1")")
        dry_t+=("$(elapsed "$t0" "$(cut -d' ' -f1 "$work/dry.end")")")
        objects "$ns" >"$work/$chart-pipe.objects" || true
      fi
      m=$(missing "$ns" || true)
      [ -z "$m" ] || echo "   $side run $run: not live: $m" | tee -a "$OUT/summary.txt"
      # A fresh bed comes next: nothing to clear.
      if [ "${FRESH_BED:-0}" = 1 ]; then :; elif [ "$clustered" = 1 ]; then uninstall "$ns"; else settle "$ns"; fi
    done
    if cmp -s "$work/$chart-stock.objects" "$work/$chart-pipe.objects"; then same=same; else
      same="DIFFERENT: $(diff "$work/$chart-stock.objects" "$work/$chart-pipe.objects" | grep '^[<>]' | tr '\n' ' ')"
    fi
    echo "   run $run: stock ${stock_t[-1]:-?} s, pipe ${pipe_t[-1]:-?} s (dry-run ${dry_t[-1]:-?} s); objects: $same ($(wc -l <"$work/$chart-stock.objects"))" |
      tee -a "$OUT/summary.txt"
  done
  if [ "${COUNT:-1}" != 0 ]; then
    for side in stock pipe; do
      wait_crds_free || continue
      ns=$(fresh_ns "${chart:0:6}-$side-n")
      log=$OUT/$chart-$side-count.log
      : >"$work/requests.log"
      c0=$(count)
      t0=$(now)
      if [ "$side" = stock ]; then
        via_proxy bash -c "$(declare -f run_stock); HELM='$HELM' REL='$REL' path='$path'; args=(\"\${@:3}\"); run_stock \"\$1\" \"\$2\"" _ "$ns" "$log" "${args[@]}" || true
      else
        # Both Helms through the proxy; the dry-run's requests are those before its end.
        via_proxy bash -c "$(declare -f run_pipe now); HELM='$HELM' REL='$REL' path='$path' work='$work'; args=(\"\${@:4}\"); run_pipe \"\$1\" \"\$2\" --kube-apiserver \"\$3\"" _ "$ns" "$log" "http://127.0.0.1:$cport" "${args[@]}" || true
      fi
      c1=$(count)
      now >"$log.end"
      cp "$work/requests.log" "$OUT/requests-$chart-$side.log"
      echo "$t0" >"$log.start"
      if [ "$side" = pipe ]; then
        dry_end=$(cut -d' ' -f1 "$work/dry.end")
        dry_req=$(awk -v e="$dry_end" '$1 <= e' "$work/requests.log" | wc -l)
        echo "   pipe API requests: $((c1 - c0)) (dry-run $dry_req + deploy $((c1 - c0 - dry_req)))" | tee -a "$OUT/summary.txt"
      else
        echo "   stock API requests: $((c1 - c0))" | tee -a "$OUT/summary.txt"
      fi
      if [ "$clustered" = 1 ]; then uninstall "$ns"; else settle "$ns"; fi
    done
  fi
  python3 - "${stock_t[*]}" "${pipe_t[*]}" "${dry_t[*]}" <<'EOF' | tee -a "$OUT/summary.txt"
import statistics, sys
stock, pipe, dry = ([float(x) for x in a.split()] for a in sys.argv[1:4])
med = statistics.median
if stock and pipe:
    print(f"   median: stock {med(stock):.2f} s, pipe {med(pipe):.2f} s (dry-run {med(dry):.2f} s): "
          f"{med(pipe) / med(stock):.2f}x")
EOF
  for run in $(seq "$RUNS") count; do
    f=$OUT/$chart-pipe-$run.log
    [ ! -f "$f" ] || echo "   pipe $run: $(python3 scripts/bench/profile.py plugin "$f" "$(cat "$f.start")")" | tee -a "$OUT/summary.txt"
  done
  f=$OUT/requests-$chart-stock.log
  [ ! -f "$f" ] || echo "   stock count: $(python3 scripts/bench/profile.py stock "$f" "$(cat "$OUT/$chart-stock-count.log.start")" "$(cat "$OUT/$chart-stock-count.log.end")")" | tee -a "$OUT/summary.txt"
done
# The API budget while waiting: one pre-install hook Job of 1 s, then of 61 s (run-hooks'
# chart), installed by each side through the counting proxy; the difference is one minute
# of waiting for a Job, in requests.
if [ "${BUDGET:-1}" != 0 ] && [ "${COUNT:-1}" != 0 ]; then
  path=$root/testdata/charts/run-hooks clustered=0 crds=""
  echo "== waiting: a pre-install hook Job of 1 s, then of 61 s" | tee -a "$OUT/summary.txt"
  declare -A budget
  for secs in 1 61; do
    args=(--set "hooks[0].name=wait" --set "hooks[0].event=pre-install" --set "hooks[0].duration=${secs}s")
    for side in stock pipe; do
      ns=$(fresh_ns "wait$secs-$side")
      log=$OUT/wait$secs-$side.log
      : >"$work/requests.log"
      c0=$(count)
      if [ "$side" = stock ]; then
        via_proxy bash -c "$(declare -f run_stock); HELM='$HELM' REL='$REL' path='$path'; args=(\"\${@:3}\"); run_stock \"\$1\" \"\$2\"" _ "$ns" "$log" "${args[@]}" || true
      else
        via_proxy bash -c "$(declare -f run_pipe now); HELM='$HELM' REL='$REL' path='$path' work='$work'; args=(\"\${@:4}\"); run_pipe \"\$1\" \"\$2\" --kube-apiserver \"\$3\"" _ "$ns" "$log" "http://127.0.0.1:$cport" "${args[@]}" || true
      fi
      c1=$(count)
      cp "$work/requests.log" "$OUT/requests-wait$secs-$side.log"
      budget[$side-$secs]=$((c1 - c0))
      settle "$ns"
    done
  done
  for side in stock pipe; do
    echo "   $side: ${budget[$side-1]} requests with a 1-s hook, ${budget[$side-61]} with a 61-s one: $((budget[$side-61] - budget[$side-1])) a minute of waiting" |
      tee -a "$OUT/summary.txt"
  done
fi
echo "outputs in $OUT"
