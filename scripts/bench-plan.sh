#!/usr/bin/env bash
# Benchmarks of `helm hooks plan` (issue 3; figures in docs/benchmarks.md):
#  1. plugin.wasm size (goal < 2 MiB);
#  2. the whole `helm hooks plan - -o json` process under the real Helm 4 on
#     a generated release of 10,000 hooks and 10,000 resources with random
#     depends-on edges: wall time and peak RSS, median of RUNS runs (goal
#     < 1 s, < 150 MiB); the native binary on the same input for comparison;
#  3. unless QUICK=1: the criterion bench of the core (benches/plan.rs) at
#     1k, 10k and 99,999 nodes, the most the reader takes (goal: 10x input, at most 12x time).
#
# Usage: scripts/bench-plan.sh            (or: make bench-plan)
# Environment: HELM (default .cache/bin/helm), RUNS (default 7),
#   HOOKS / RESOURCES (default 10000 each), SEED (42), QUICK=1 to skip criterion,
#   CARGO_TARGET_DIR (default $HOOKS_CACHE/target).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
HELM=${HELM:-$root/.cache/bin/helm}
RUNS=${RUNS:-7}
HOOKS=${HOOKS:-10000}
RESOURCES=${RESOURCES:-10000}
SEED=${SEED:-42}
target=${CARGO_TARGET_DIR:-$HOOKS_CACHE/target}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

cargo build --release --target wasm32-wasip1 --lib
cargo build --release --bin helm-hooks
wasm=$target/wasm32-wasip1/release/helm_hooks.wasm
native=$target/release/helm-hooks

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/plugin"
cp plugin.yaml "$work/plugin/plugin.yaml"
cp "$wasm" "$work/plugin/plugin.wasm"
export HELM_DATA_HOME=$work/data HELM_CONFIG_HOME=$work/config HELM_CACHE_HOME=$work/cache
"$HELM" plugin install "$work/plugin" >/dev/null

python3 scripts/bench/gen_release.py --hooks "$HOOKS" --resources "$RESOURCES" --seed "$SEED" >"$work/release.json"

size=$(stat -c %s "$work/plugin/plugin.wasm")
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "helm: $("$HELM" version --short 2>/dev/null || "$HELM" version)"
echo "plugin.wasm: $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.2f MiB", s / 1048576 }'))"
echo "input: $HOOKS hooks, $RESOURCES resources, $(stat -c %s "$work/release.json") bytes of release JSON"

# Check once that the output is a complete plan, then time RUNS runs.
"$native" plan - -o json <"$work/release.json" >"$work/native.json"
"$HELM" hooks plan - -o json <"$work/release.json" >"$work/helm.json"
cmp -s "$work/native.json" "$work/helm.json" || { echo "helm and native outputs differ" >&2; exit 1; }
python3 - "$work/helm.json" "$HOOKS" "$RESOURCES" <<'EOF'
import json, sys
plan = json.load(open(sys.argv[1]))
hooks = sum(len(e.get("hooks", [])) for e in plan["events"])
res = sum(len(e.get("resources", [])) for e in plan["events"])
assert (hooks, res) == (int(sys.argv[2]), int(sys.argv[3])), (hooks, res)
print(f"plan: {len(plan['events'])} entries, {hooks} hooks, {res} resources, "
      f"{sum(len(e['waves']) for e in plan['events'])} waves")
EOF

measure() { # label, command...
    local label=$1
    shift
    : >"$work/times"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%e %M' -o "$work/t" "$@" <"$work/release.json" >/dev/null
        cat "$work/t" >>"$work/times"
    done
    python3 - "$label" "$work/times" <<'EOF'
import statistics, sys
label, path = sys.argv[1], sys.argv[2]
rows = [tuple(map(float, l.split())) for l in open(path) if l.strip()]
t = [r[0] for r in rows]
m = [r[1] / 1024 for r in rows]
print(f"{label:<30} wall median {statistics.median(t):.2f} s (min {min(t):.2f}, max {max(t):.2f}), "
      f"peak RSS median {statistics.median(m):.1f} MiB (max {max(m):.1f}), {len(rows)} runs")
EOF
}

# The first Helm run compiles plugin.wasm; later runs may reuse Helm's cache.
rm -rf "$HELM_CACHE_HOME"
/usr/bin/time -f '%e %M' -o "$work/t" "$HELM" hooks plan - -o json <"$work/release.json" >/dev/null
read -r t m <"$work/t"
echo "helm hooks plan (cold cache)   wall $t s, peak RSS $(awk -v m="$m" 'BEGIN { printf "%.1f", m / 1024 }') MiB"
measure "helm hooks plan - -o json" "$HELM" hooks plan - -o json
measure "helm-hooks (native)" "$native" plan - -o json
measure "helm hooks version" "$HELM" hooks version

if [ "${QUICK:-0}" != 1 ]; then
    cargo bench --bench plan
fi
