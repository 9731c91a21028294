#!/usr/bin/env bash
# Both Helm builds side by side in one run (issue 11; figures in docs/benchmarks.md,
# section "Stock Helm against the host-functions Helm"), on the test bed:
#   stock:  $HOOKS_CACHE/bin/helm      + dist/hooks       (--kube-apiserver/--kube-token)
#   host:   $HOOKS_CACHE/bin/helm-host + dist/hooks-host  (the bed's kubeconfig, --kube-context)
# 1. run: HOOKS parallel test Jobs of SECS s (chart testdata/charts/run-hooks),
#    `helm hooks run --event test --parallel PARALLEL`, against the bed's floor (one
#    SECS-second Job, created to Complete, kubectl wait) x ceil(HOOKS/PARALLEL) waves;
#    then two kinds at once: a chain of CHAIN bare Pods of CHAIN_SECS + i/CHAIN s, each
#    depending on the one before, beside one Job that outlasts them (--parallel 2), so
#    the plugin waits on two collections throughout: how late each Pod's end is seen,
#    against the bed's floor (one Pod, created to Succeeded);
# 2. deploy: NGROUPS x PER resources (scripts/bench/groups-chart, sequenced), dry-run
#    then `helm hooks deploy -`; overhead per batch = (deploy wall - sum over batches of
#    the time the cluster took to make the batch ready, from a kubectl watch) / batches;
# 3. plan: PLAN_HOOKS hooks + PLAN_RESOURCES resources (scripts/bench/gen_release.py),
#    `helm hooks plan - -o json`, PLAN_RUNS runs, median wall.
# Builds are run alternately (stock, host) within each step, so bed load drifts hit both.
#
# Usage: scripts/bench-host.sh   (the bed must be up: testbed/cluster.sh up)
# Environment: HOOKS (32; 0 skips), SECS (5), PARALLEL (8), CHAIN (8, 0 skips), CHAIN_SECS (2),
#   NGROUPS (5; 0 skips), PER (10), RUNS (2), PLAN_HOOKS (10000),
#   PLAN_RESOURCES (10000), PLAN_RUNS (5; 0 skips), KEEP=1 keeps namespaces;
#   HELM_STOCK_BIN, HELM_HOST_BIN (default: $HOOKS_CACHE/bin/helm, helm-host) and
#   PLUGIN_DIST (a folder holding hooks/ and hooks-host/; default: `make` dist/) to
#   compare other builds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
HOOKS=${HOOKS:-32} SECS=${SECS:-5} PARALLEL=${PARALLEL:-8}
CHAIN=${CHAIN:-8} CHAIN_SECS=${CHAIN_SECS:-2}
NGROUPS=${NGROUPS:-5} PER=${PER:-10} RUNS=${RUNS:-2}
PLAN_HOOKS=${PLAN_HOOKS:-10000} PLAN_RESOURCES=${PLAN_RESOURCES:-10000} PLAN_RUNS=${PLAN_RUNS:-5}

eval "$(testbed/cluster.sh env)"
helm_stock=${HELM_STOCK_BIN:-$HOOKS_CACHE/bin/helm}
helm_host=${HELM_HOST_BIN:-$HOOKS_CACHE/bin/helm-host}
for b in "$helm_stock" "$helm_host"; do
  [ -x "$b" ] || { echo "no $b (testbed/build.sh helm helm_host)" >&2; exit 2; }
done
if [ -n "${PLUGIN_DIST:-}" ]; then
  dist=$PLUGIN_DIST
else
  make -s dist/hooks dist/hooks-host >&2
  dist=dist
fi

work=$(mktemp -d)
run_id=$(date +%s%N | tail -c 7)
cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then
    local mine
    mine=$(kubectl get namespaces -o name 2>/dev/null | grep "^namespace/bench-host-$run_id-" || true)
    [ -z "$mine" ] || kubectl delete $mine --wait=false --ignore-not-found >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

context=$(kubectl config current-context)
# helm_as BUILD ARGS...: the build's Helm, its own Helm home with its plugin, and the way
# it reaches the bed (the stock build cannot read a kubeconfig; the host build only does).
helm_as() {
  local b=$1
  shift
  if [ "$b" = stock ]; then
    HELM_DATA_HOME=$work/$b/data HELM_CONFIG_HOME=$work/$b/config HELM_CACHE_HOME=$work/$b/cache \
      "$helm_stock" "$@"
  else
    env -u HELM_KUBEAPISERVER -u HELM_KUBETOKEN -u HELM_KUBECAFILE \
      HELM_DATA_HOME=$work/$b/data HELM_CONFIG_HOME=$work/$b/config HELM_CACHE_HOME=$work/$b/cache \
      "$helm_host" "$@"
  fi
}
conn() { # the flags that name the cluster to `helm hooks`
  if [ "$1" = stock ]; then echo "--kube-apiserver $HELM_KUBEAPISERVER --kube-token $HELM_KUBETOKEN"
  else echo "--kube-context $context"; fi
}
helm_as stock plugin install "$dist/hooks" >/dev/null
helm_as host plugin install "$dist/hooks-host" >/dev/null

fresh_ns() {
  local ns=bench-host-$run_id-$1-$(date +%s%N | tail -c 5)
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$ns"
}
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh

echo "machine: $(nproc) cores; helm: $("$helm_stock" version --short); bed $HELM_KUBEAPISERVER"
echo "builds: $helm_stock + $dist/hooks; $helm_host + $dist/hooks-host"

# -- 1. run ------------------------------------------------------------------------------
if [ "$HOOKS" -gt 0 ]; then
python3 - "$HOOKS" "$SECS" >"$work/values.json" <<'EOF'
import json, sys
n, secs = int(sys.argv[1]), sys.argv[2]
print(json.dumps({"hooks": [{"name": f"t{i:03d}", "duration": f"{secs}s", "kind": "Job",
                             "annotations": {"helm.sh/hook-parallel": "true"}} for i in range(1, n + 1)]}))
EOF
floor_ns=$(fresh_ns floor)
floor=$(floor_job "$floor_ns")
waves=$(( (HOOKS + PARALLEL - 1) / PARALLEL ))
echo "run: $HOOKS Jobs x ${SECS} s at --parallel $PARALLEL; bed floor: one Job ${floor} s, x $waves waves = $(awk -v f="$floor" -v w="$waves" 'BEGIN { printf "%.2f", f * w }') s"
for r in $(seq "$RUNS"); do
  for b in stock host; do
    ns=$(fresh_ns "run-$b")
    helm_as "$b" install bench testdata/charts/run-hooks -n "$ns" -f "$work/values.json" >/dev/null
    t0=$(now)
    # shellcheck disable=SC2046
    helm_as "$b" $(conn "$b") hooks run bench -n "$ns" --event test --parallel "$PARALLEL" --timeout 10m -o json \
      >"$work/run-$b-$r.json" 2>"$work/run-$b-$r.err" || { cat "$work/run-$b-$r.err" >&2; exit 1; }
    wall=$(elapsed "$t0" "$(now)")
    python3 - "$work/run-$b-$r.json" "$HOOKS" "$b" "$wall" "$floor" "$waves" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n, b, wall, floor, waves = int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
assert d["outcome"] == "succeeded" and len(d["hooks"]) == n and all(h["phase"] == "Succeeded" for h in d["hooks"]), d["outcome"]
ideal = floor * waves
goal = ideal * 1.05 + 0.5
print(f"  {b:5} helm hooks run: {wall:6.2f} s wall, {wall - ideal:+.2f} s over the floor x waves "
      f"({(wall / ideal - 1) * 100:+.1f} %), goal <= {goal:.2f} s: {'met' if wall <= goal else 'MISSED'}; "
      f"{d.get('api_requests', '?')} API requests")
EOF
  done
done

fi

# -- 1b. run, two kinds at once ---------------------------------------------------------
# Pod i of the chain runs CHAIN_SECS + i/CHAIN s: the ends fall at every point of a
# one-second watch round, rather than all at one.
if [ "$CHAIN" -gt 0 ]; then
  long=$(( CHAIN * (CHAIN_SECS + 3) + 2 ))
  python3 - "$CHAIN" "$CHAIN_SECS" "$long" >"$work/chain.json" <<'EOF'
import json, sys
n, secs, long = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
par = {"helm.sh/hook-parallel": "true"}
hooks = [{"name": "long", "kind": "Job", "duration": f"{long}s", "annotations": par}]
for i in range(n):
    a = dict(par)
    if i > 0:
        a["helm.sh/depends-on"] = json.dumps([f"Pod/p{i - 1}"])
    hooks.append({"name": f"p{i}", "kind": "Pod", "duration": f"{secs * 1000 + i * 1000 // n}ms", "annotations": a})
print(json.dumps({"hooks": hooks}))
EOF
  floor_ns=$(fresh_ns floor2)
  fp=$(SECS=$CHAIN_SECS floor_pod "$floor_ns")
  echo "run, two kinds at once: a chain of $CHAIN Pods of ${CHAIN_SECS} s + i/$CHAIN s, each depending on the one before, beside one Job of ${long} s (--parallel 2); bed floor: one Pod of ${CHAIN_SECS} s ${fp} s"
  for r in $(seq "$RUNS"); do
    for b in stock host; do
      ns=$(fresh_ns "chain-$b")
      helm_as "$b" install bench testdata/charts/run-hooks -n "$ns" -f "$work/chain.json" >/dev/null
      # shellcheck disable=SC2046
      helm_as "$b" $(conn "$b") hooks run bench -n "$ns" --event test --parallel 2 --timeout 10m -o json \
        >"$work/chain-$b-$r.json" 2>"$work/chain-$b-$r.err" || { cat "$work/chain-$b-$r.err" >&2; exit 1; }
      python3 - "$work/chain-$b-$r.json" "$CHAIN" "$CHAIN_SECS" "$b" "$fp" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n, secs, b, fp = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
assert d["outcome"] == "succeeded" and all(h["phase"] == "Succeeded" for h in d["hooks"]), d["outcome"]
pods = sorted((h for h in d["hooks"] if h["ref"].startswith("Pod/")), key=lambda h: h["started_at"])
assert len(pods) == n, len(pods)
# Pod i's floor: the bed's, plus what it runs longer than the floor's Pod.
floors = [fp + (i * 1000 // n) / 1000 for i in range(n)]
late = [(p["completed_at"] - p["started_at"]) / 1000 - f for p, f in zip(pods, floors)]
span = (pods[-1]["completed_at"] - pods[0]["started_at"]) / 1000
print(f"  {b:5} chain of {n} Pods: {span:6.2f} s, {span - sum(floors):+.2f} s over the sum of their floors; "
      f"a Pod's end seen {sum(late) / n:+.2f} s after its floor on average (max {max(late):+.2f}); "
      f"{d.get('api_requests', '?')} API requests")
EOF
    done
  done
fi

# -- 2. deploy ---------------------------------------------------------------------------
if [ "$NGROUPS" -gt 0 ]; then
chart=$work/chart
cp -r scripts/bench/groups-chart "$chart"
printf 'sequenced: true\nnelm: false\ngroups: %s\nper: %s\n' "$NGROUPS" "$PER" >"$chart/values.yaml"
echo "deploy: $NGROUPS groups x $PER resources, sequenced"
for r in $(seq "$RUNS"); do
  for b in stock host; do
    ns=$(fresh_ns "deploy-$b")
    (kubectl get deployments -n "$ns" -w --output-watch-events \
      -o jsonpath='{.type} {.object.metadata.name} {.object.status.availableReplicas}{"\n"}' |
      while read -r line; do echo "$(date +%s.%N) $line"; done >"$work/watch-$b-$r.txt") 2>/dev/null &
    watcher=$!
    sleep 1
    # shellcheck disable=SC2046
    helm_as "$b" $(conn "$b") upgrade --install bench "$chart" -n "$ns" --dry-run=server -o json >"$work/dry.json" 2>/dev/null ||
      helm_as "$b" upgrade --install bench "$chart" -n "$ns" --dry-run=server -o json >"$work/dry.json"
    t0=$(now)
    # shellcheck disable=SC2046
    helm_as "$b" $(conn "$b") hooks deploy - -n "$ns" -o json <"$work/dry.json" >"$work/deploy-$b-$r.json"
    wall=$(elapsed "$t0" "$(now)")
    sleep 0.5
    pkill -P "$watcher" 2>/dev/null || true
    kill "$watcher" 2>/dev/null || true
    python3 - "$work/deploy-$b-$r.json" "$work/watch-$b-$r.txt" "$b" "$wall" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
b, wall = sys.argv[3], float(sys.argv[4])
batches = sorted({row["batch"] for row in r["resources"]})
added, available = {}, {}
for line in open(sys.argv[2]):
    parts = line.split()
    if len(parts) < 3:
        continue
    t, ty, name = float(parts[0]), parts[1], parts[2]
    batch = int(name.split("-")[0][1:]) + 1
    if ty == "ADDED":
        added[batch] = min(added.get(batch, t), t)
    if len(parts) > 3 and parts[3].isdigit() and int(parts[3]) >= 1 and name not in available:
        available[name] = (batch, t)
cluster = []
for bb in sorted(added):
    ends = [t for (x, t) in available.values() if x == bb]
    cluster.append(max(ends) - added[bb] if ends else 0.0)
deploy = (r["ended_at"] - r["started_at"]) / 1000
over = (deploy - sum(cluster)) / max(len(cluster), 1)
print(f"  {b:5} helm hooks deploy: {wall:6.2f} s wall ({deploy:.2f} s plugin clock), {len(batches)} batches; "
      f"cluster made them ready in {sum(cluster):.2f} s; overhead per batch {over:.2f} s "
      f"(goal <= 0.2 s: {'met' if over <= 0.2 else 'MISSED'}); {r.get('api_requests', '?')} API requests")
EOF
  done
done

fi

[ "$PLAN_RUNS" -gt 0 ] || exit 0
# -- 3. plan -----------------------------------------------------------------------------
python3 scripts/bench/gen_release.py --hooks "$PLAN_HOOKS" --resources "$PLAN_RESOURCES" --seed 42 >"$work/release.json"
echo "plan: $PLAN_HOOKS hooks + $PLAN_RESOURCES resources, $PLAN_RUNS runs each, after one warm-up"
for b in stock host; do
  helm_as "$b" hooks plan - -o json <"$work/release.json" >"$work/plan-$b.json"
done
cmp -s "$work/plan-stock.json" "$work/plan-host.json" || { echo "the two builds planned differently" >&2; exit 1; }
: >"$work/plan-stock.times"
: >"$work/plan-host.times"
for _ in $(seq "$PLAN_RUNS"); do
  for b in stock host; do
    t0=$(now)
    helm_as "$b" hooks plan - -o json <"$work/release.json" >/dev/null
    elapsed "$t0" "$(now)" >>"$work/plan-$b.times"
    echo >>"$work/plan-$b.times"
  done
done
for b in stock host; do
  python3 - "$b" "$work/plan-$b.times" <<'EOF'
import statistics, sys
t = [float(x) for x in open(sys.argv[2]).read().split()]
goal = f"; goal < 1 s under the patched runtime: {'met' if statistics.median(t) < 1 else 'MISSED'}"
print(f"  {sys.argv[1]:5} helm hooks plan: median {statistics.median(t):.2f} s (min {min(t):.2f}, max {max(t):.2f})"
      + (goal if sys.argv[1] == "host" else " (stock runtime: recorded, no goal)"))
EOF
done
