#!/usr/bin/env bash
# How soon the plugin sees a readiness the cluster wrote (issue 48; figures in
# docs/benchmarks.md, "Readiness seen when it happens"), on the test bed with no other
# writer than the bed's own controllers. A chart of five resource groups chained one after
# another (scripts/bench/groups-chart: per group 2 Deployments of 1 replica, 2 Services, the
# rest ConfigMaps) is deployed through the README's pipe, RUNS times per build, each in a
# fresh namespace, with a watch on its Deployments started before: the cluster's write of
# each Deployment's first available replica is stamped when the watch event arrives, and the
# plugin's report says when it saw that Deployment ready (`resources[].ready_at`). The
# difference, per Deployment, is the latency; the goal: every one within 0.3 s.
#
# Builds (BUILDS): stock (the bed's Helm + dist/hooks) and host (helm-host + dist/hooks-host).
# Usage: scripts/bench-ready.sh   (or: make bench-ready, which also stops the bed after)
# Environment: RUNS (5), PER (4), BUILDS ("stock host"), KEEP=1 keeps namespaces and files.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
RUNS=${RUNS:-5}
PER=${PER:-4}
BUILDS=${BUILDS:-stock host}

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
make -s -C "$root" dist/hooks dist/hooks-host >&2
run_id=$(date +%s%N | tail -c 7)
prefix=bench-ready-$run_id-
work=$(mktemp -d)
watcher=""
cleanup() {
  [ -z "$watcher" ] || { pkill -P "$watcher" 2>/dev/null || true; kill "$watcher" 2>/dev/null || true; }
  if [ "${KEEP:-0}" != 1 ]; then
    local mine
    mine=$(kubectl get namespaces -o name 2>/dev/null | grep "^namespace/$prefix" || true)
    [ -z "$mine" ] || kubectl delete $mine --wait=false >/dev/null 2>&1 || true
    rm -rf "$work"
  else
    echo "kept: $work" >&2
  fi
}
trap cleanup EXIT

cp -r scripts/bench/groups-chart "$work/chart"
printf 'sequenced: true\nnelm: false\ngroups: 5\nper: %s\n' "$PER" >"$work/chart/values.yaml"
conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")

for build in $BUILDS; do
  case $build in
    stock) helm=$HOOKS_CACHE/bin/helm plugin=$root/dist/hooks ;;
    host) helm=$HOOKS_CACHE/bin/helm-host plugin=$root/dist/hooks-host ;;
    *) echo "unknown build $build (stock, host)" >&2; exit 2 ;;
  esac
  home=$work/home-$build
  mkdir -p "$home"
  export HELM_DATA_HOME=$home/data HELM_CONFIG_HOME=$home/config HELM_CACHE_HOME=$home/cache
  "$helm" plugin install "$plugin" >/dev/null
  "$helm" hooks version >/dev/null # the Wasm compile cache: not part of any run
  for run in $(seq "$RUNS"); do
    ns=$prefix$build-$run
    kubectl create namespace "$ns" >/dev/null
    (kubectl get deployments -n "$ns" -w --output-watch-events \
      -o jsonpath='{.type} {.object.metadata.name} {.object.status.availableReplicas}{"\n"}' |
      while read -r line; do echo "$(date +%s.%N) $line"; done >"$work/watch-$build-$run.txt") 2>/dev/null &
    watcher=$!
    sleep 1
    "$helm" upgrade --install bench "$work/chart" -n "$ns" --dry-run=server -o json >"$work/dry.json"
    HELM_HOOKS_TRACE=1 "$helm" hooks deploy - -n "$ns" -o json "${conn[@]}" <"$work/dry.json" \
      >"$work/report-$build-$run.json" 2>"$work/trace-$build-$run.log"
    sleep 0.5
    pkill -P "$watcher" 2>/dev/null || true
    kill "$watcher" 2>/dev/null || true
    watcher=""
  done
done

python3 - "$work" "$RUNS" $BUILDS <<'EOF'
import json, statistics, sys
work, runs, builds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
GOAL = 0.3
ok = True
for build in builds:
    late = []
    for run in range(1, runs + 1):
        seen = {}
        for line in open(f"{work}/watch-{build}-{run}.txt"):
            p = line.split()
            if len(p) > 3 and p[3].isdigit() and int(p[3]) >= 1 and p[2] not in seen:
                seen[p[2]] = float(p[0])
        report = json.load(open(f"{work}/report-{build}-{run}.json"))
        for row in report["resources"]:
            kind, _, name = row["ref"].partition("/")
            if kind != "Deployment":
                continue
            late.append((row["ready_at"] / 1000 - seen[name], run, name))
    late.sort()
    xs = [x for x, _, _ in late]
    over = [f"{x:.2f} s (run {r}, {n})" for x, r, n in late if x > GOAL]
    p95 = xs[max(0, round(0.95 * len(xs)) - 1)]
    print(f"{build}: {len(xs)} readinesses in {runs} five-batch deploys; seen after the cluster's write: "
          f"median {statistics.median(xs):.3f} s, p95 {p95:.3f} s, max {xs[-1]:.3f} s; "
          + (f"over {GOAL} s: {len(over)}: " + ", ".join(over) if over else f"all within {GOAL} s"))
    ok = ok and not over
sys.exit(0 if ok else 1)
EOF
