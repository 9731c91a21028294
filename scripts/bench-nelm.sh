#!/usr/bin/env bash
# Side by side with Nelm (issue 14, point 4; figures in docs/benchmarks.md, section
# "Nelm side by side"), on the test bed (docs/testing.md). For each chart, one after the
# other, in fresh namespaces `nelm-*`, release name `nelmb`:
#  - stock `helm install --wait` (the bed's pinned Helm);
#  - the plugin: `helm upgrade --install --dry-run=server -o json | helm hooks deploy -`
#    (dist/hooks, installed with `helm plugin install` into a temporary HELM_DATA_HOME);
#  - `nelm release install` (the pinned Nelm, built here by `testbed/build.sh nelm`);
# RUNS times each: wall time; during every run a watch per kind involved, started before
# the tool, stamps each object's ADDED/DELETED on arrival: the order each tool created the
# chart's objects in (the first run's order is printed, as waves: objects created less
# than 0.3 s after the previous one share a wave). Then one more run of each through a
# request-counting proxy (scripts/bench/count_proxy.py in front of `kubectl proxy`): API
# requests. Last, each tool once on a chart whose pre-install hook Job fails: exit code,
# time and everything it printed (the plugin also with helm.sh/show-output on the hook).
#
# Charts (CHARTS, default all):
#  bench          the chart scripts/bench-deploy.sh generates: NGROUPS groups x PER resources
#                 (2 Deployments, 2 Services, the rest ConfigMaps), g0 <- g1 <- ... Stock:
#                 without the group keys (all at once); plugin: HIP-0025 resource groups;
#                 Nelm: the equivalent werf.io/weight (group N has weight N; Nelm deploys
#                 a weight only once every resource of the one before is ready).
#  hooks16        NHOOKS pre-install Job hooks of the same weight (HOOK_SECS each) and one
#                 Deployment. Stock runs them one by one; plugin: helm.sh/hook-parallel
#                 and --parallel NHOOKS; Nelm runs hooks of one weight at once by default.
#  ingress-nginx  testdata/charts/real/ingress-nginx, IngressClass renamed nelmb-nginx so
#  cert-manager   testdata/charts/real/cert-manager with crds.enabled=true
#                 nothing clashes with other users of the bed. Both have cluster-scoped
#                 objects, so every run is uninstalled (and the CRDs cert-manager keeps are
#                 deleted) before the next; cert-manager waits (up to 5 min) until no other
#                 release holds its CRDs. Skipped when the folder is missing.
#
# Nelm follows every container's log (GET pods/x/log?follow=true, from its tracker kubedog)
# and counts a Job's pod finished only once those streams end; the bed's kwok ends them
# when the container has exited only with testbed/kwok-patches/0001 (docs/benchmarks.md,
# "Why Nelm needed --no-pod-logs on the bed"). A bed started with an older kwok binary
# needs `testbed/cluster.sh down && up` first, or NELM_POD_LOGS=0 (Nelm with --no-pod-logs).
#
# Usage: scripts/bench-nelm.sh
# Starts the bed if it is down and leaves it running.
# Environment: CHARTS, RUNS (3), NGROUPS (5), PER (10), NHOOKS (16), HOOK_SECS (1s),
#   HELM (the bed's), NELM (the bed's), HOOKS_PLUGIN_DIR (dist/hooks; built if missing),
#   OUT (folder for every output; default: a new folder under /tmp, kept), KEEP=1 keeps
#   the namespaces, NELM_POD_LOGS=0 (Nelm with --no-pod-logs; default 1, logs on).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
CHARTS=${CHARTS:-bench hooks16 ingress-nginx cert-manager}
RUNS=${RUNS:-3}
NGROUPS=${NGROUPS:-5}
PER=${PER:-10}
NHOOKS=${NHOOKS:-16}
HOOK_SECS=${HOOK_SECS:-1s}
OUT=${OUT:-$(mktemp -d /tmp/bench-nelm.XXXXXX)}
mkdir -p "$OUT"
REL=nelmb
python3 -c 'import yaml' 2>/dev/null || { echo "needs python3 with PyYAML" >&2; exit 2; }

testbed/build.sh nelm >&2
testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
NELM=${NELM:-$HOOKS_CACHE/bin/nelm}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }
[ -x "$NELM" ] || { echo "no Nelm at $NELM (testbed/build.sh nelm, or set NELM)" >&2; exit 2; }
nelm_logs=()
[ "${NELM_POD_LOGS:-1}" = 1 ] || nelm_logs=(--no-pod-logs)

work=$(mktemp -d)
pids=()
# (fresh_ns runs in a subshell: the namespaces it makes are listed in a file.)
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  local namespaces=()
  [ ! -s "$work/namespaces" ] || mapfile -t namespaces <"$work/namespaces"
  if [ "${KEEP:-0}" != 1 ] && [ ${#namespaces[@]} -gt 0 ]; then
    sweep_cluster "${namespaces[@]}" || true
    kubectl delete namespace "${namespaces[@]}" --wait=false --ignore-not-found >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${HOOKS_PLUGIN_DIR:-}" ]; then
  [ -f dist/hooks/plugin.wasm ] || make -s dist/hooks >&2
  HOOKS_PLUGIN_DIR=$root/dist/hooks
fi
export HELM_DATA_HOME=$work/data HELM_CONFIG_HOME=$work/config HELM_CACHE_HOME=$work/cache
"$HELM" plugin install "$HOOKS_PLUGIN_DIR" >/dev/null
plugin_conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")

# ---- charts ------------------------------------------------------------------------------
bench=$work/bench
cp -r "$root/scripts/bench/groups-chart" "$bench"
printf 'sequenced: true\nnelm: false\ngroups: %s\nper: %s\n' "$NGROUPS" "$PER" >"$bench/values.yaml"

hooks16=$work/hooks16
mkdir -p "$hooks16/templates"
printf 'apiVersion: v2\nname: hooks16\nversion: 0.1.0\n' >"$hooks16/Chart.yaml"
printf 'hooks: %s\nsecs: %s\nparallel: false\n' "$NHOOKS" "$HOOK_SECS" >"$hooks16/values.yaml"
cat >"$hooks16/templates/all.yaml" <<'EOF'
{{- range $i := until (int .Values.hooks) }}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: hook-{{ $i }}
  annotations:
    helm.sh/hook: pre-install
    helm.sh/hook-weight: "0"
    {{- if $.Values.parallel }}
    helm.sh/hook-parallel: "true"
    {{- end }}
spec:
  backoffLimit: 0
  template:
    metadata:
      annotations:
        hooks-test/duration: {{ $.Values.secs | quote }}
    spec:
      restartPolicy: Never
      containers:
        - {name: main, image: registry.invalid/hook:1}
{{- end }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: registry.invalid/app:1}]
EOF

failing=$work/failing
mkdir -p "$failing/templates"
printf 'apiVersion: v2\nname: failing-hook\nversion: 0.1.0\n' >"$failing/Chart.yaml"
cat >"$failing/templates/all.yaml" <<'EOF'
apiVersion: batch/v1
kind: Job
metadata:
  name: db-migrate
  annotations:
    helm.sh/hook: pre-install
    {{- if .Values.showOutput }}
    helm.sh/show-output: "true"
    {{- end }}
spec:
  backoffLimit: 0
  template:
    metadata:
      annotations:
        hooks-test/duration: "1s"
        hooks-test/exit-code: "3"
        hooks-test/log: "applying migration 0042_add_accounts\nERROR: relation \"users\" does not exist"
    spec:
      restartPolicy: Never
      containers:
        - {name: migrate, image: registry.invalid/migrate:1}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  replicas: 1
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: registry.invalid/app:1}]
EOF

# Per chart: its folder, the values of each side, the plugin's deploy flags, and whether
# it has cluster-scoped objects (then every run is uninstalled before the next).
setup_chart() {
  stock_args=() plugin_args=() nelm_args=() deploy_flags=() clustered=0
  case $1 in
    bench)
      path=$bench stock_args=(--set sequenced=false) nelm_args=(--set sequenced=false --set nelm=true) ;;
    hooks16)
      path=$hooks16 plugin_args=(--set parallel=true) deploy_flags=(--parallel "$NHOOKS") ;;
    ingress-nginx)
      path=$root/testdata/charts/real/ingress-nginx clustered=1
      stock_args=(--set controller.ingressClassResource.name=$REL-nginx) ;;
    cert-manager)
      path=$root/testdata/charts/real/cert-manager clustered=1 stock_args=(--set crds.enabled=true) ;;
    *) echo "unknown chart $1" >&2; return 1 ;;
  esac
  case $1 in ingress-nginx | cert-manager)
    plugin_args=("${stock_args[@]}") nelm_args=("${stock_args[@]}") ;;
  esac
}

# ---- helpers -----------------------------------------------------------------------------
fresh_ns() {
  local ns=nelm-$1-$(date +%s%N | tail -c 7)
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$ns" >>"$work/namespaces"
  echo "$ns"
}
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh
# shellcheck source=scripts/bench/sweep.sh
. scripts/bench/sweep.sh

# The three ways in. $1: namespace; the rest: the side's values. Output to $log.
run_stock() { local ns=$1; shift; "$HELM" install "$REL" "$path" -n "$ns" --wait --timeout 5m "$@"; }
run_plugin() {
  local ns=$1; shift
  "$HELM" upgrade --install "$REL" "$path" -n "$ns" --dry-run=server -o json "$@" >"$work/dry.json" &&
    "$HELM" hooks deploy - -n "$ns" --timeout 5m "${plugin_conn[@]}" "${deploy_flags[@]}" <"$work/dry.json"
}
run_nelm() {
  local ns=$1; shift
  "$NELM" release install -n "$ns" -r "$REL" "$path" --timeout 5m "${nelm_logs[@]}" "$@"
}

# Uninstalls the release of a side (clustered charts), then deletes what a keep policy
# left: every cluster-scoped object whose release namespace is $ns.
uninstall() { # side ns
  if [ "$1" = nelm ]; then
    "$NELM" release uninstall -n "$2" -r "$REL" --no-pod-logs >>"$OUT/uninstall.log" 2>&1 || true
  else
    "$HELM" uninstall "$REL" -n "$2" --wait --timeout 2m >>"$OUT/uninstall.log" 2>&1 || true
  fi
  sweep_cluster "$2"
}
# Cluster-scoped objects (and kube-system Roles) of our namespaces, or named after our release.
sweep_cluster() { sweep_release_cluster "$REL" "$@"; }
# cert-manager's CRDs have fixed names: wait until no one else's release holds them.
wait_crds_free() {
  local i crd
  for i in $(seq 300); do
    crd=$(kubectl get crd -o name 2>/dev/null | grep -c 'cert-manager.io$' || true)
    [ "$crd" = 0 ] && return 0
    sleep 1
  done
  return 1
}

# The objects a chart renders (Kind/name), for the watches' filter and their kinds.
objects_of() { # ns values...
  local ns=$1; shift
  "$HELM" template "$REL" "$path" -n "$ns" "$@" | python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and "kind" in d:
        print(d["kind"] + "/" + d["metadata"]["name"])
'
}

# ---- watches: one per kind, all namespaces, filtered to the chart's objects -----------
cat >"$work/watch.py" <<'EOF'
import json, sys, threading, time, urllib.request
base, ns, names_file, out = sys.argv[1:5]
names = set(open(names_file).read().split())
kinds = {n.split("/", 1)[0] for n in names}
def get(path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.load(r)
paths = {}
for g in [("", "/api/v1")] + [(gr["name"], "/apis/" + gr["preferredVersion"]["groupVersion"]) for gr in get("/apis")["groups"]]:
    try:
        lst = get(g[1])
    except Exception:
        continue
    for r in lst["resources"]:
        if "/" not in r["name"] and r["kind"] in kinds and "watch" in r.get("verbs", []) and r["kind"] not in paths:
            paths[r["kind"]] = g[1] + "/" + r["name"]
f = open(out, "w", buffering=1)
lock = threading.Lock()
ready = threading.Semaphore(0)
def watch(kind, path):
    rv = get(path)["metadata"]["resourceVersion"]
    ready.release()
    while True:
        try:
            with urllib.request.urlopen(f"{base}{path}?watch=1&allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds=600", timeout=700) as r:
                for line in r:
                    t = time.time()
                    ev = json.loads(line)
                    o = ev["object"]
                    m = o.get("metadata", {})
                    if ev["type"] == "ERROR":
                        rv = get(path)["metadata"]["resourceVersion"]
                        break
                    rv = m.get("resourceVersion", rv)
                    if ev["type"] not in ("ADDED", "DELETED"):
                        continue
                    if m.get("namespace") not in (None, ns, "kube-system") or f"{kind}/{m['name']}" not in names:
                        continue
                    with lock:
                        f.write(f"{t:.3f} {ev['type']} {kind}/{m['name']}\n")
        except Exception:
            time.sleep(0.2)
for kind, path in paths.items():
    threading.Thread(target=watch, args=(kind, path), daemon=True).start()
for _ in paths:
    ready.acquire()
print("ready", flush=True)
while True:
    time.sleep(3600)
EOF

# shellcheck source=scripts/bench/count-proxy.sh
. scripts/bench/count-proxy.sh
start_count_proxy
via_proxy() { env -u HELM_KUBEAPISERVER -u HELM_KUBETOKEN -u HELM_KUBECAFILE KUBECONFIG="$work/proxy.kubeconfig" "$@"; }

start_watch() { # ns names out
  python3 "$work/watch.py" "http://127.0.0.1:$kport" "$1" "$2" "$3" >"$work/watch.ready" 2>/dev/null &
  watcher=$!
  pids+=("$watcher")
  for _ in $(seq 300); do grep -q ready "$work/watch.ready" 2>/dev/null && return 0; sleep 0.1; done
  echo "the watches did not start" >&2
}
stop_watch() { sleep 0.5; kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true; }

{
  echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)  helm: $("$HELM" version --short)"
  echo "nelm: $("$NELM" version 2>/dev/null | sed -n 's/^full: //p')  plugin: $HOOKS_PLUGIN_DIR ($("$HELM" plugin list 2>/dev/null | awk '$1=="hooks"{print $2}'))"
  echo "nelm flags: ${nelm_logs[*]:-(logs on)}; runs: $RUNS"
} | tee "$OUT/summary.txt"

# ---- the runs ----------------------------------------------------------------------------
for chart in $CHARTS; do
  setup_chart "$chart"
  if [ ! -d "$path" ]; then
    echo "== $chart: $path is missing; skipped" | tee -a "$OUT/summary.txt"
    continue
  fi
  echo "== $chart" | tee -a "$OUT/summary.txt"
  for side in stock plugin nelm; do
    case $side in stock) vals=("${stock_args[@]}") ;; plugin) vals=("${plugin_args[@]}") ;; nelm) vals=("${nelm_args[@]}") ;; esac
    times=()
    for run in $(seq "$RUNS") count; do
      if [ "$chart" = cert-manager ] && ! wait_crds_free; then
        echo "   $side: cert-manager's CRDs stayed held by another release for 5 min; skipped" | tee -a "$OUT/summary.txt"
        continue 2
      fi
      ns=$(fresh_ns "${chart:0:8}-$side")
      objects_of "$ns" "${vals[@]}" >"$work/names"
      log=$OUT/$chart-$side-$run.log
      if [ "$run" = count ]; then
        c0=$(count)
        case $side in
          stock) via_proxy bash -c "$(declare -f run_stock); HELM='$HELM' REL='$REL' path='$path'; run_stock \"\$@\"" _ "$ns" "${vals[@]}" >"$log" 2>&1 || echo "   $side: counted run failed (see $log)" | tee -a "$OUT/summary.txt" ;;
          plugin)
            via_proxy "$HELM" upgrade --install "$REL" "$path" -n "$ns" --dry-run=server -o json "${vals[@]}" >"$work/dry.json" 2>"$log"
            c1=$(count)
            "$HELM" hooks deploy - -n "$ns" --timeout 5m --kube-apiserver "http://127.0.0.1:$cport" "${deploy_flags[@]}" <"$work/dry.json" >>"$log" 2>&1 ||
              echo "   $side: counted run failed (see $log)" | tee -a "$OUT/summary.txt"
            dry_req=$((c1 - c0)) ;;
          nelm) via_proxy "$NELM" release install -n "$ns" -r "$REL" "$path" --timeout 5m "${nelm_logs[@]}" "${vals[@]}" >"$log" 2>&1 ||
            echo "   $side: counted run failed (see $log)" | tee -a "$OUT/summary.txt" ;;
        esac
        c2=$(count)
        if [ "$side" = plugin ]; then
          echo "   $side API requests: $((c2 - c0)) (dry-run $dry_req + deploy $((c2 - c0 - dry_req)))" | tee -a "$OUT/summary.txt"
        else
          echo "   $side API requests: $((c2 - c0))" | tee -a "$OUT/summary.txt"
        fi
      else
        start_watch "$ns" "$work/names" "$OUT/$chart-$side-$run.watch"
        t0=$(now)
        rc=0
        "run_$side" "$ns" "${vals[@]}" >"$log" 2>&1 || rc=$?
        t1=$(now)
        stop_watch
        times+=("$(elapsed "$t0" "$t1")")
        [ "$rc" = 0 ] || echo "   $side run $run FAILED (exit $rc; see $log): $(grep -iE 'error|fail' "$log" | tail -1)" | tee -a "$OUT/summary.txt"
      fi
      [ "$clustered" = 0 ] || uninstall "$side" "$ns"
    done
    python3 - "$side" "$OUT/$chart-$side-1.watch" "${times[@]}" <<'EOF' | tee -a "$OUT/summary.txt"
import statistics, sys
side, watch, times = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3:]]
if times:
    print(f"   {side:6} wall: median {statistics.median(times):6.2f} s  runs {times}")
ev = [l.split() for l in open(watch)] if watch else []
added = [(float(t), o) for t, ty, o in ev if ty == "ADDED"]
deleted = [o for t, ty, o in ev if ty == "DELETED"]
if not added:
    sys.exit()
t0 = added[0][0]
waves, last = [], None
for t, o in added:
    if last is None or t - last > 0.3:
        waves.append((t - t0, []))
    waves[-1][1].append(o)
    last = t
def show(objs):
    if len(objs) <= 4:
        return ", ".join(objs)
    kinds = {}
    for o in objs:
        k = o.split("/")[0]
        kinds[k] = kinds.get(k, 0) + 1
    return f"{len(objs)} objects: " + ", ".join(f"{k} x{n}" for k, n in kinds.items())
print(f"   {side:6} order (run 1, {len(added)} created, {len(deleted)} deleted):")
for t, objs in waves:
    print(f"          +{t:6.2f} s  {show(objs)}")
EOF
  done
done

# ---- a failing pre-install hook ------------------------------------------------------------
path=$failing
stock_args=() plugin_args=() nelm_args=() deploy_flags=()
echo "== failing pre-install hook (each once)" | tee -a "$OUT/summary.txt"
# The plugin twice: as is, and with the hook marked helm.sh/show-output (its logs).
for side in stock plugin plugin-show-output nelm; do
  ns=$(fresh_ns "fail-${side%%-*}")
  t0=$(now)
  rc=0
  case $side in
    plugin-show-output) run_plugin "$ns" --set showOutput=true >"$OUT/fail-$side.log" 2>&1 || rc=$? ;;
    *) "run_$side" "$ns" >"$OUT/fail-$side.log" 2>&1 || rc=$? ;;
  esac
  t1=$(now)
  echo "-- $side: exit $rc after $(elapsed "$t0" "$t1") s; it printed:" | tee -a "$OUT/summary.txt"
  sed 's/^/   | /' "$OUT/fail-$side.log" | tee -a "$OUT/summary.txt"
done
echo "outputs in $OUT" >&2
