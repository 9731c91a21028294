#!/usr/bin/env bash
# Benchmark of the sequenced deploy (issue 5; figures in docs/benchmarks.md, section
# "helm hooks deploy"), on the test bed (docs/testing.md):
#  1. a chart of NGROUPS resource groups chained one after another (g1 <- g2 <- ...), each
#     of PER resources (2 Deployments of 1 replica, 2 Services, the rest ConfigMaps);
#  2. stock `helm install --wait` of it (rendered without the HIP-0025 two-slash key, which
#     stock Helm 4.2 cannot apply) against the sequenced install
#     `helm upgrade --install --dry-run=server -o json | helm hooks deploy -`, one after the
#     other in fresh namespaces, RUNS times: wall times;
#  3. what the sequenced time is spent on: the dry-run, and per batch its readiness time as
#     the cluster saw it (a watch on the Deployments, started before the deploy: from a
#     batch's first ADDED to its last Deployment with an available replica) against the
#     time the plugin took from the batch's first apply to its last ready; goal: deploy <=
#     sum of the batches' readiness times + 1 s per batch;
#  4. API requests of each side, counted by a forwarding proxy (scripts/bench/count_proxy.py
#     in front of `kubectl proxy`) in one more run of each; and the plugin's own count.
#
# Usage: scripts/bench-deploy.sh   (or: make bench-deploy)
# Starts the bed if it is down and leaves it running.
# Environment: NGROUPS (5), PER (10), RUNS (3), HELM (the bed's), HOOKS_PLUGIN_DIR (a built
#   plugin directory; default: build one), KEEP=1 keeps the namespaces.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
GROUPS_N=${NGROUPS:-5}
PER=${PER:-10}
RUNS=${RUNS:-3}

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }

# Namespaces are made in $(...) subshells, so they are found again by this run's prefix.
run_id=$(date +%s%N | tail -c 7)
# shellcheck source=scripts/bench/helm_home.sh
. "$root/scripts/bench/helm_home.sh"
bench_home "bench-deploy-$run_id-"

# The chart: GROUPS groups of PER resources, each group waiting for the one before.
chart=$work/chart
cp -r "$root/scripts/bench/groups-chart" "$chart"
printf 'sequenced: true\nnelm: false\ngroups: %s\nper: %s\n' "$GROUPS_N" "$PER" >"$chart/values.yaml"

fresh_ns() {
  local ns=bench-deploy-$run_id-$1-$(date +%s%N | tail -c 5)
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$ns"
}
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh
plugin_conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")

stock() { # ns [helm args...]
  local ns=$1
  shift
  "$HELM" install bench "$chart" -n "$ns" --set sequenced=false --wait --timeout 5m "$@" >/dev/null
}
sequenced() { # ns report [helm args...]
  local ns=$1 report=$2
  shift 2
  "$HELM" upgrade --install bench "$chart" -n "$ns" --dry-run=server -o json "$@" >"$work/dry.json"
  "$HELM" hooks deploy - -n "$ns" -o json "${plugin_conn[@]}" "$@" <"$work/dry.json" >"$report"
}

echo "chart: $GROUPS_N groups x $PER resources = $((GROUPS_N * PER)) resources" >&2
stock_times=()
seq_times=()
dry_times=()
for run in $(seq "$RUNS"); do
  ns=$(fresh_ns stock)
  t0=$(now); stock "$ns"; t1=$(now)
  stock_times+=("$(elapsed "$t0" "$t1")")
  ns=$(fresh_ns seq)
  # The cluster's own view of readiness: every Deployment event, stamped on arrival.
  (kubectl get deployments -n "$ns" -w --output-watch-events \
    -o jsonpath='{.type} {.object.metadata.name} {.object.status.availableReplicas}{"\n"}' |
    while read -r line; do echo "$(date +%s.%N) $line"; done >"$work/watch-$run.txt") 2>/dev/null &
  watcher=$!
  sleep 1
  t0=$(now)
  "$HELM" upgrade --install bench "$chart" -n "$ns" --dry-run=server -o json >"$work/dry.json"
  t1=$(now)
  "$HELM" hooks deploy - -n "$ns" -o json "${plugin_conn[@]}" <"$work/dry.json" >"$work/report-$run.json"
  t2=$(now)
  sleep 0.5
  pkill -P "$watcher" 2>/dev/null || true
  kill "$watcher" 2>/dev/null || true
  dry_times+=("$(elapsed "$t0" "$t1")")
  seq_times+=("$(elapsed "$t1" "$t2")")
  echo "run $run: stock install --wait ${stock_times[-1]} s; sequenced: dry-run ${dry_times[-1]} s + deploy ${seq_times[-1]} s" >&2
done

# Requests, through the counting proxy (both sides pay the same extra hop).
# shellcheck source=scripts/bench/count-proxy.sh
. scripts/bench/count-proxy.sh
start_count_proxy
ns=$(fresh_ns stock-count)
# Helm prefers HELM_KUBEAPISERVER and friends (set by cluster env) to the kubeconfig.
via_proxy() { env -u HELM_KUBEAPISERVER -u HELM_KUBETOKEN -u HELM_KUBECAFILE KUBECONFIG="$work/proxy.kubeconfig" "$@"; }
c0=$(count); via_proxy bash -c "$(declare -f stock); HELM='$HELM' chart='$chart'; stock '$ns'"; c1=$(count)
stock_requests=$((c1 - c0))
ns=$(fresh_ns seq-count)
c0=$(count)
via_proxy "$HELM" upgrade --install bench "$chart" -n "$ns" --dry-run=server -o json >"$work/dry.json"
c1=$(count)
"$HELM" hooks deploy - -n "$ns" -o json --kube-apiserver "http://127.0.0.1:$cport" <"$work/dry.json" >"$work/report-count.json"
c2=$(count)
dry_requests=$((c1 - c0))
deploy_requests=$((c2 - c1))

python3 - "$work" "$RUNS" "$stock_requests" "$dry_requests" "$deploy_requests" "${stock_times[*]}" "${dry_times[*]}" "${seq_times[*]}" <<'EOF'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
stock_req, dry_req, deploy_req = map(int, sys.argv[3:6])
stock = [float(x) for x in sys.argv[6].split()]
dry = [float(x) for x in sys.argv[7].split()]
seq = [float(x) for x in sys.argv[8].split()]
med = statistics.median
print(f"stock helm install --wait      median {med(stock):6.2f} s   runs {stock}")
print(f"sequenced: helm dry-run        median {med(dry):6.2f} s   runs {dry}")
print(f"sequenced: helm hooks deploy   median {med(seq):6.2f} s   runs {seq}")
total = [a + b for a, b in zip(dry, seq)]
print(f"sequenced: total               median {med(total):6.2f} s   ({med(total) / med(stock):.2f}x stock)")
# Where the deploy's time goes, run by run.
for run in range(1, runs + 1):
    r = json.load(open(f"{work}/report-{run}.json"))
    seen = {}
    for row in r["resources"]:
        b = seen.setdefault(row["batch"], [row["applied_at"], row["ready_at"]])
        b[0] = min(b[0], row["applied_at"])
        b[1] = max(b[1], row["ready_at"])
    plugin_ready = [(b[1] - b[0]) / 1000 for _, b in sorted(seen.items())]
    # The cluster: per batch (Deployments g<b-1>-r*), first ADDED to last available.
    added, available = {}, {}
    for line in open(f"{work}/watch-{run}.txt"):
        parts = line.split()
        if len(parts) < 3:
            continue
        t, ty, name = float(parts[0]), parts[1], parts[2]
        batch = int(name.split("-")[0][1:]) + 1
        if ty == "ADDED":
            added[batch] = min(added.get(batch, t), t)
        if len(parts) > 3 and int(parts[3]) >= 1 and name not in available:
            available[name] = (batch, t)
    cluster_ready = []
    for b in sorted(seen):
        ends = [t for (bb, t) in available.values() if bb == b]
        cluster_ready.append(max(ends) - added[b] if ends and b in added else 0.0)
    deploy = (r["ended_at"] - r["started_at"]) / 1000
    goal = sum(cluster_ready) + len(cluster_ready)
    print(f"run {run}: deploy {deploy:.2f} s (plugin clock); batches ready, as the cluster saw it: "
          + ", ".join(f"{x:.2f}" for x in cluster_ready) + f" = {sum(cluster_ready):.2f} s; "
          + "as the plugin saw it (first apply to last ready): " + ", ".join(f"{x:.2f}" for x in plugin_ready)
          + f"; goal <= {goal:.2f} s: " + ("met" if deploy <= goal else f"MISSED by {deploy - goal:.2f} s"))
own = json.load(open(f"{work}/report-count.json"))["api_requests"]
print(f"API requests: stock install --wait {stock_req}; sequenced: dry-run {dry_req} + deploy {deploy_req} "
      f"(plugin's own count {own}) = {dry_req + deploy_req}")
EOF
