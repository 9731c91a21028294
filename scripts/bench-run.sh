#!/usr/bin/env bash
# Benchmark of `helm hooks run` (issue 4; figures in docs/benchmarks.md, section
# "helm hooks run"), on the test bed (docs/testing.md):
#  1. one release of HOOKS test hooks (KIND: Jobs, or bare Pods as `helm create`'s test; of SECS seconds, helm.sh/hook-parallel: "true";
#     chart testdata/charts/run-hooks) installed twice, in two namespaces;
#  2. stock `helm test` on one and `helm hooks run --event test --parallel PARALLEL` on the
#     other, one after the other, RUNS times: wall times, speed-up, and the plugin against
#     the ideal ceil(HOOKS/PARALLEL) x SECS (goal: within 2 s + 5 %);
#  3. the API requests of each plugin run (the summary's `api_requests`, counted by the
#     plugin's client), per hook, at --parallel PARALLEL and --parallel HOOKS (all at once);
#     SERIAL=1 adds --parallel 1 (slow: HOOKS x SECS);
#  4. the bed's floor: how long one SECS-second Job (Pod) takes from creation to Complete (Succeeded)
#     (kubectl create + kubectl wait), since no tool can beat it per wave.
#  REAL=1: the hooks run on the bed's real node (busybox `sleep SECS` in real containers,
#     testbed/realnode.sh), and the floor is the same HOOKS pods created at once with one
#     kubectl until the last has Succeeded (docs/benchmarks.md, "On real containers").
#
# Usage: scripts/bench-run.sh   (or: make bench-run)
# Starts the bed if it is down (testbed/cluster.sh up) and leaves it running.
# Environment: KIND (Job; or Pod), HOOKS (32), SECS (5), PARALLEL (8), RUNS (1), SERIAL (0), REAL (0), HELM (the bed's),
#   CARGO_TARGET_DIR ($HOOKS_CACHE/target), KEEP=1 keeps the namespaces.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
HOOKS=${HOOKS:-32}
SECS=${SECS:-5}
PARALLEL=${PARALLEL:-8}
RUNS=${RUNS:-1}
SERIAL=${SERIAL:-0}
KIND=${KIND:-Job}
REAL=${REAL:-0}
case $KIND in Job | Pod) ;; *) echo "KIND must be Job or Pod" >&2; exit 2 ;; esac
target=${CARGO_TARGET_DIR:-$HOOKS_CACHE/target}

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }

cargo build --release --target wasm32-wasip1 --lib >&2
wasm=$target/wasm32-wasip1/release/helm_hooks.wasm

work=$(mktemp -d)
stamp=$(date +%s)
ns_stock=bench-run-stock-$stamp
ns_plugin=bench-run-plugin-$stamp
cleanup() {
  if [ "${KEEP:-0}" != 1 ]; then
    kubectl delete namespace "$ns_stock" "$ns_plugin" --wait=false --ignore-not-found >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

mkdir -p "$work/plugin"
cp plugin.yaml "$work/plugin/plugin.yaml"
cp "$wasm" "$work/plugin/plugin.wasm"
export HELM_DATA_HOME=$work/data HELM_CONFIG_HOME=$work/config HELM_CACHE_HOME=$work/cache
"$HELM" plugin install "$work/plugin" >/dev/null
# Helm compiles plugin.wasm on its first load and caches the result (about half a second):
# once per plugin version, not part of any run's time.
"$HELM" hooks version >/dev/null

# The release: HOOKS parallel test Jobs of SECS seconds.
python3 - "$HOOKS" "$SECS" "$KIND" "$REAL" >"$work/values.json" <<'EOF'
import json, sys
n, secs, kind, real = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == "1"
hooks = [{"name": f"t{i:03d}", "duration": f"{secs}s", "kind": kind,
          "annotations": {"helm.sh/hook-parallel": "true"}} for i in range(1, n + 1)]
print(json.dumps({"hooks": hooks, "realNode": real}))
EOF
for ns in "$ns_stock" "$ns_plugin"; do
  kubectl create namespace "$ns" >/dev/null
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  "$HELM" install bench testdata/charts/run-hooks -n "$ns" -f "$work/values.json" >/dev/null
done

ELAPSED_DIGITS=1
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh

if [ "$REAL" = 1 ]; then
  floor=$(floor_real "$ns_plugin" "$HOOKS")
elif [ "$KIND" = Pod ]; then floor=$(floor_pod "$ns_plugin"); else floor=$(floor_job "$ns_plugin"); fi

hooks_run() { # parallel, output file; prints the wall time
  local p=$1 out=$2 t0 t1
  t0=$(now)
  "$HELM" --kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN" \
    hooks run bench -n "$ns_plugin" --event test --parallel "$p" --timeout 10m -o json >"$out" 2>"$out.err" ||
    { cat "$out.err" >&2; echo "helm hooks run --parallel $p failed" >&2; exit 1; }
  t1=$(now)
  elapsed "$t0" "$t1"
}

stock=() plugin=()
for r in $(seq "$RUNS"); do
  t0=$(now)
  "$HELM" test bench -n "$ns_stock" --timeout 10m >"$work/stock-$r.txt" 2>&1 ||
    { cat "$work/stock-$r.txt" >&2; echo "helm test failed" >&2; exit 1; }
  t1=$(now)
  stock+=("$(elapsed "$t0" "$t1")")
  plugin+=("$(hooks_run "$PARALLEL" "$work/plugin-$r.json")")
done
all_wall=$(hooks_run "$HOOKS" "$work/plugin-all.json")
serial_wall=""
[ "$SERIAL" != 1 ] || serial_wall=$(hooks_run 1 "$work/plugin-serial.json")

python3 - "$work" "$HOOKS" "$SECS" "$PARALLEL" "$RUNS" "$floor" "${stock[*]}" "${plugin[*]}" "$all_wall" "$serial_wall" "$KIND" "$REAL" <<'EOF'
import json, math, statistics, sys, os
work, n, secs, par, runs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
floor = float(sys.argv[6])
stock = [float(x) for x in sys.argv[7].split()]
plugin = [float(x) for x in sys.argv[8].split()]
all_wall = float(sys.argv[9])
serial_wall = float(sys.argv[10]) if sys.argv[10] else None
kind = sys.argv[11]
real = sys.argv[12] == "1"

def load(name):
    d = json.load(open(os.path.join(work, name)))
    assert d["outcome"] == "succeeded", d["outcome"]
    assert len(d["hooks"]) == n and all(h["phase"] == "Succeeded" for h in d["hooks"])
    return d

def waves(d):
    starts = sorted(h["started_at"] for h in d["hooks"])
    # Hooks started within 500 ms of each other belong to one wave.
    out, cur = [], [starts[0]]
    for s in starts[1:]:
        if s - cur[0] <= 500:
            cur.append(s)
        else:
            out.append(cur); cur = [s]
    out.append(cur)
    return out

def req(d):
    r = d.get("api_requests")
    return "n/a" if r is None else f"{r} ({r / n:.1f}/hook)"

ideal = math.ceil(n / par) * secs
goal = ideal + 2 + 0.05 * ideal
bed_ideal = math.ceil(n / par) * floor
s_med, p_med = statistics.median(stock), statistics.median(plugin)
runs_json = [load(f"plugin-{r}.json") for r in range(1, runs + 1)]
d = runs_json[-1]
run_secs = (d["ended_at"] - d["started_at"]) / 1000
w = waves(d)
where = "real containers on the bed's real node (busybox sleep)" if real else "kwok's scripted pods"
print(f"machine: {os.cpu_count()} cores; {n} test hooks ({kind}s) of {secs:g} s, helm.sh/hook-parallel: \"true\", {where}; runs: {runs}")
print()
print("| | wall time | |")
print("|---|---|---|")
print(f"| stock `helm test` | **{s_med:.1f} s** ({', '.join(f'{x:.1f}' for x in stock)}) | {n} x {secs:g} s serial = {n*secs:g} s of hooks |")
print(f"| `helm hooks run --event test --parallel {par}` | **{p_med:.1f} s** ({', '.join(f'{x:.1f}' for x in plugin)}) | inside the plugin: {run_secs:.1f} s; {len(w)} waves of {', '.join(str(len(x)) for x in w)} |")
print(f"| speed-up | **{s_med / p_med:.1f}x** | |")
print(f"| ideal ceil({n}/{par}) x {secs:g} s | {ideal:g} s | goal: within 2 s + 5 % = {goal:.1f} s: **{'met' if p_med <= goal else 'missed'}** ({p_med - ideal:+.1f} s) |")
if real:
    print(f"| the node's floor: {n} {kind}s of {secs:g} s created at once by kubectl, until the last {'Complete' if kind == 'Job' else 'Succeeded'} | {floor:.1f} s | `--parallel {n}` against it: {all_wall / floor:.2f}x ({all_wall - floor:+.1f} s) |")
else:
    print(f"| bed floor: one {secs:g} s {kind}, creation to {'Complete' if kind == 'Job' else 'Succeeded'} | {floor:.1f} s | ceil({n}/{par}) x floor = {bed_ideal:.1f} s ({p_med - bed_ideal:+.1f} s) |")
print(f"| `--parallel {n}` (all at once) | {all_wall:.1f} s | |")
if serial_wall is not None:
    print(f"| `--parallel 1` | {serial_wall:.1f} s | |")
print()
print("| API requests of the run | requests (per hook) |")
print("|---|---|")
for r, dj in enumerate(runs_json, 1):
    print(f"| `--parallel {par}`, run {r} | {req(dj)} |")
print(f"| `--parallel {n}` | {req(load('plugin-all.json'))} |")
if serial_wall is not None:
    print(f"| `--parallel 1` | {req(load('plugin-serial.json'))} |")
EOF
