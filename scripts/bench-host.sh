#!/usr/bin/env bash
# Both Helm builds side by side in one run (issue 11; figures in docs/benchmarks.md,
# section "Stock Helm against the host-functions Helm"), on the test bed:
#   stock:  $HOOKS_CACHE/bin/helm      + dist/hooks       (--kube-apiserver/--kube-token)
#   host:   $HOOKS_CACHE/bin/helm-host + dist/hooks-host  (the bed's kubeconfig, --kube-context)
# 1. run: HOOKS parallel test Jobs of SECS s (chart testdata/charts/run-hooks),
#    `helm hooks run --event test --parallel PARALLEL`, against the bed's floor (one
#    SECS-second Job, created to Complete, kubectl wait) x ceil(HOOKS/PARALLEL) waves;
#    then MIXED hooks of MIXED_SECS s, Jobs and bare Pods alternately, at --parallel
#    MIXED_PARALLEL: two kinds running at once, so the plugin waits on two collections;
# 2. deploy: NGROUPS x PER resources (scripts/bench/groups-chart, sequenced), dry-run
#    then `helm hooks deploy -`; overhead per batch = (deploy wall - sum over batches of
#    the time the cluster took to make the batch ready, from a kubectl watch) / batches;
# 3. plan: PLAN_HOOKS hooks + PLAN_RESOURCES resources (scripts/bench/gen_release.py),
#    `helm hooks plan - -o json`, PLAN_RUNS runs, median wall.
# Builds are run alternately (stock, host) within each step, so bed load drifts hit both.
#
# Usage: scripts/bench-host.sh   (the bed must be up: testbed/cluster.sh up)
# Environment: HOOKS (32), SECS (5), PARALLEL (8), MIXED (16, 0 skips), MIXED_SECS (2),
#   MIXED_PARALLEL (4), NGROUPS (5), PER (10), RUNS (2), PLAN_HOOKS (10000),
#   PLAN_RESOURCES (10000), PLAN_RUNS (5; 0 skips), KEEP=1 keeps namespaces;
#   HELM_STOCK_BIN, HELM_HOST_BIN (default: $HOOKS_CACHE/bin/helm, helm-host) and
#   PLUGIN_DIST (a folder holding hooks/ and hooks-host/; default: `make` dist/) to
#   compare other builds.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-$root/.cache}
HOOKS=${HOOKS:-32} SECS=${SECS:-5} PARALLEL=${PARALLEL:-8}
MIXED=${MIXED:-16} MIXED_SECS=${MIXED_SECS:-2} MIXED_PARALLEL=${MIXED_PARALLEL:-4}
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

# -- 1b. run, two kinds at once ---------------------------------------------------------
if [ "$MIXED" -gt 0 ]; then
  python3 - "$MIXED" "$MIXED_SECS" >"$work/mixed.json" <<'EOF'
import json, sys
n, secs = int(sys.argv[1]), sys.argv[2]
print(json.dumps({"hooks": [{"name": f"m{i:03d}", "duration": f"{secs}s", "kind": "Job" if i % 2 else "Pod",
                             "annotations": {"helm.sh/hook-parallel": "true"}} for i in range(1, n + 1)]}))
EOF
  floor_ns=$(fresh_ns floor2)
  fj=$(SECS=$MIXED_SECS floor_job "$floor_ns")
  fp=$(SECS=$MIXED_SECS floor_pod "$floor_ns")
  mwaves=$(( (MIXED + MIXED_PARALLEL - 1) / MIXED_PARALLEL ))
  echo "run, two kinds: $MIXED hooks x ${MIXED_SECS} s, Jobs and Pods alternately, at --parallel $MIXED_PARALLEL ($mwaves waves); bed floor: one Job ${fj} s, one Pod ${fp} s"
  for r in $(seq "$RUNS"); do
    for b in stock host; do
      ns=$(fresh_ns "mixed-$b")
      helm_as "$b" install bench testdata/charts/run-hooks -n "$ns" -f "$work/mixed.json" >/dev/null
      t0=$(now)
      # shellcheck disable=SC2046
      helm_as "$b" $(conn "$b") hooks run bench -n "$ns" --event test --parallel "$MIXED_PARALLEL" --timeout 10m -o json \
        >"$work/mixed-$b-$r.json" 2>"$work/mixed-$b-$r.err" || { cat "$work/mixed-$b-$r.err" >&2; exit 1; }
      wall=$(elapsed "$t0" "$(now)")
      python3 - "$work/mixed-$b-$r.json" "$MIXED" "$b" "$wall" "$fj" "$mwaves" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n, b, wall, fj, waves = int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
assert d["outcome"] == "succeeded" and len(d["hooks"]) == n and all(h["phase"] == "Succeeded" for h in d["hooks"]), d["outcome"]
print(f"  {b:5} helm hooks run: {wall:6.2f} s wall, {wall - fj * waves:+.2f} s over the Job floor x waves "
      f"({fj * waves:.2f} s); {d.get('api_requests', '?')} API requests")
EOF
    done
  done
fi

# -- 2. deploy ---------------------------------------------------------------------------
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
