#!/usr/bin/env bash
# Load benchmark (issue 13; figures in docs/benchmarks.md, section "Load"), on the test bed:
#  1. `helm hooks run` of HOOKS test hooks (bare Pods, alternately 0 s and 1 s, all
#     helm.sh/hook-parallel; every other one helm.sh/hook-delete-policy: hook-succeeded)
#     at --parallel 1 (SMALL hooks only), 8 and 50: wall time, API requests per hook,
#     Helm's peak memory (max RSS of the helm process, Wasm runtime included); every hook
#     accounted for (Succeeded in the report and in the stored release, the hook-succeeded
#     ones deleted, the others left, as Helm's policies say);
#  2. `helm hooks deploy` of RESOURCES ConfigMaps in GROUP_COUNT HIP-0025 resource groups (a
#     chain), at --parallel-resources 1 (SMALL resources only), 8, 50 and unlimited: wall
#     time, API requests per resource, peak memory; every resource Ready and in the cluster.
#
# Usage: scripts/bench-load.sh   (or: make bench-load)
# Environment: HOOKS (500), RESOURCES (1000), GROUP_COUNT (20), SMALL (50), HELM (the bed's),
#   CARGO_TARGET_DIR ($HOOKS_CACHE/target), KEEP=1 keeps the namespaces.
# Starts the bed if it is down and leaves it running.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
HOOKS=${HOOKS:-500}
RESOURCES=${RESOURCES:-1000}
GROUP_COUNT=${GROUP_COUNT:-20}
SMALL=${SMALL:-50}
target=${CARGO_TARGET_DIR:-$HOOKS_CACHE/target}

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
cargo build --release --target wasm32-wasip1 --lib >&2
work=$(mktemp -d)
stamp=$(date +%s)
namespaces=()
cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then
    [ ${#namespaces[@]} -eq 0 ] || kubectl delete namespace "${namespaces[@]}" --wait=false --ignore-not-found >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT
mkdir -p "$work/plugin"
cp plugin.yaml "$work/plugin/"
cp "$target/wasm32-wasip1/release/helm_hooks.wasm" "$work/plugin/plugin.wasm"
export HELM_DATA_HOME=$work/data HELM_CONFIG_HOME=$work/config HELM_CACHE_HOME=$work/cache
"$HELM" plugin install "$work/plugin" >/dev/null
auth=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")

fresh_ns() {
  local ns=$1
  namespaces+=("$ns")
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
}

# One measured helm command: wall seconds and max RSS (KiB) into $out.time.
measured() {
  local out=$1
  shift
  /usr/bin/time -f '%e %M' -o "$out.time" "$@" >"$out" 2>"$out.err" ||
    { cat "$out.err" >&2; echo "failed: $*" >&2; exit 1; }
}

# --- hooks -------------------------------------------------------------------------------
hooks_case() { # count parallel
  local n=$1 p=$2 ns=bench-load-run-$1-$2-$stamp
  fresh_ns "$ns"
  python3 - "$n" >"$work/hooks-$n.json" <<'EOF'
import json, sys
n = int(sys.argv[1])
hooks = []
for i in range(n):
    ann = {"helm.sh/hook-parallel": "true"}
    if i % 2:
        ann["helm.sh/hook-delete-policy"] = "hook-succeeded"
    hooks.append({"name": f"t{i:04d}", "kind": "Pod", "duration": "1s" if i % 2 == 0 else "0s", "annotations": ann})
print(json.dumps({"hooks": hooks}))
EOF
  "$HELM" install load testdata/charts/run-hooks -n "$ns" -f "$work/hooks-$n.json" >/dev/null
  measured "$work/run-$n-$p.json" "$HELM" "${auth[@]}" hooks run load -n "$ns" --parallel "$p" --timeout 20m -o json
  "$HELM" status load -n "$ns" -o json >"$work/status-$n-$p.json"
  kubectl -n "$ns" get pods -o name >"$work/pods-$n-$p.txt"
  echo "run $n $p $work/run-$n-$p.json $work/status-$n-$p.json $work/pods-$n-$p.txt" >>"$work/cases"
}

# --- resources ---------------------------------------------------------------------------
deploy_case() { # count groups parallel-resources (0: unlimited)
  local n=$1 g=$2 p=$3 ns=bench-load-deploy-$1-$3-$stamp flag=()
  fresh_ns "$ns"
  [ "$p" = 0 ] || flag=(--parallel-resources "$p")
  python3 - "$n" "$g" >"$work/objects-$n.json" <<'EOF'
import json, sys
n, g = int(sys.argv[1]), int(sys.argv[2])
objs = []
for i in range(n):
    k = i * g // n
    o = {"name": f"c{i:04d}", "group": f"g{k:02d}"}
    if k:
        o["after"] = [f"g{k - 1:02d}"]
    objs.append(o)
print(json.dumps({"objects": objs}))
EOF
  "$HELM" upgrade --install load testdata/charts/sequenced -n "$ns" -f "$work/objects-$n.json" \
    --dry-run=server -o json >"$work/render-$n.json"
  measured "$work/deploy-$n-$p.json" "$HELM" "${auth[@]}" hooks deploy - -n "$ns" "${flag[@]}" \
    --timeout 20m -o json <"$work/render-$n.json"
  kubectl -n "$ns" get configmaps -o name | grep -c '/c[0-9]' >"$work/cms-$n-$p.txt" || true
  echo "deploy $n $p $work/deploy-$n-$p.json $g $work/cms-$n-$p.txt" >>"$work/cases"
}

: >"$work/cases"
for p in 1 8 50; do hooks_case "$SMALL" "$p"; done
for p in 8 50; do hooks_case "$HOOKS" "$p"; done
for p in 1 8 50 0; do deploy_case "$SMALL" 5 "$p"; done
for p in 8 50 0; do deploy_case "$RESOURCES" "$GROUP_COUNT" "$p"; done

python3 - "$work/cases" <<'EOF'
import json, sys
rows_run, rows_deploy, bad = [], [], []
for line in open(sys.argv[1]):
    f = line.split()
    wall, rss = open(f[3] + ".time").read().split()
    doc = json.load(open(f[3]))
    req = doc.get("api_requests") or 0
    if f[0] == "run":
        n, p = int(f[1]), int(f[2])
        rows = doc["hooks"] if "hooks" in doc else doc["rows"]
        ok = sum(1 for r in rows if r.get("phase") == "Succeeded")
        stored = json.load(open(f[4]))["hooks"]
        stored_ok = sum(1 for h in stored if h.get("last_run", {}).get("phase") == "Succeeded")
        left = len(open(f[5]).read().split())
        if ok != n or stored_ok != n or left != n - n // 2:
            bad.append(f"run n={n} p={p}: report {ok}/{n}, stored {stored_ok}/{n}, pods left {left} (want {n - n // 2})")
        rows_run.append(f"| {n} | {p} | {float(wall):.1f} | {req} | {req / n:.2f} | {int(rss) // 1024} |")
    else:
        n, p, g = int(f[1]), int(f[2]), int(f[4])
        ready = sum(1 for r in doc["resources"] if r["state"] == "Ready")
        live = int(open(f[5]).read().strip() or 0)
        if ready != n or live != n or doc["status"] != "deployed":
            bad.append(f"deploy n={n} p={p}: {ready}/{n} Ready, {live} live, status {doc['status']}")
        rows_deploy.append(f"| {n} | {g} | {p or 'unlimited'} | {float(wall):.1f} | {req} | {req / n:.2f} | {int(rss) // 1024} |")
print("| hooks | --parallel | wall (s) | API requests | per hook | helm max RSS (MiB) |")
print("|---|---|---|---|---|---|")
print("\n".join(rows_run))
print()
print("| resources | groups | --parallel-resources | wall (s) | API requests | per resource | helm max RSS (MiB) |")
print("|---|---|---|---|---|---|---|")
print("\n".join(rows_deploy))
if bad:
    print("\nNOT ACCOUNTED FOR:\n" + "\n".join(bad))
    sys.exit(1)
print("\nEvery hook and resource accounted for.")
EOF
