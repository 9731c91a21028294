#!/usr/bin/env bash
# `plan -` (text), `lint -` and `plan - -o json` of 10,000 hooks + 10,000
# resources through Helm (issue 40's goal: text and lint under 1 s; figures in
# docs/benchmarks.md), for each plugin directory given, side by side: one
# Helm home each, a run each to compile, then RUNS rounds alternating the
# builds; medians and ranges of wall and user time, per input (template text
# and release JSON from scripts/bench/gen_star_chain.py).
#
# Usage: scripts/bench-text.sh [PLUGIN_DIR...]    (default: dist/hooks;
#          make bench-text builds it)
#        BASE=<rev> scripts/bench-text.sh         (that revision's plugin.wasm,
#          built in a worktree, beside dist/hooks)
# Environment: HELM (default $HOOKS_CACHE/bin/helm), RUNS (5).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
HELM=${HELM:-${HOOKS_CACHE:-$HOME/.cache/helm-hooks}/bin/helm}
RUNS=${RUNS:-5}
[ -x "$HELM" ] || { echo "no Helm 4 at $HELM (make tools, or set HELM)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
work=$(mktemp -d)
cleanup() {
  [ -d "$work/base" ] && git -C "$root" worktree remove --force "$work/base" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

dirs=("$@")
if [ -n "${BASE:-}" ]; then
  git worktree add --detach "$work/base" "$BASE" >/dev/null
  (cd "$work/base" && CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}-base \
    cargo build -q --release --target wasm32-wasip1 --lib)
  mkdir -p "$work/base-plugin"
  cp "$root"/{plugin.yaml,completion.yaml,LICENSE} "$work/base-plugin/"
  cp "${CARGO_TARGET_DIR:-$root/target}-base/wasm32-wasip1/release/helm_hooks.wasm" "$work/base-plugin/plugin.wasm"
  dirs=("$work/base-plugin" "${dirs[@]:-$root/dist/hooks}")
fi
[ ${#dirs[@]} -gt 0 ] || dirs=("$root/dist/hooks")

python3 scripts/bench/gen_star_chain.py > "$work/text.yaml"
python3 scripts/bench/gen_star_chain.py --json > "$work/release.json"
home() { echo "$work/home-$1"; }
for i in "${!dirs[@]}"; do
  h=$(home "$i")
  HELM_CONFIG_HOME=$h/c HELM_DATA_HOME=$h/d HELM_CACHE_HOME=$h/k "$HELM" plugin install "${dirs[$i]}" >/dev/null
  HELM_CONFIG_HOME=$h/c HELM_DATA_HOME=$h/d HELM_CACHE_HOME=$h/k "$HELM" hooks lint - < "$work/text.yaml" >/dev/null || true
  echo "# $i: ${dirs[$i]} (plugin.wasm $(stat -c %s "${dirs[$i]}/plugin.wasm") bytes)"
done
echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/')"
for input in text.yaml release.json; do
  for command in "plan -" "lint -" "plan - -o json"; do
    declare -A times=()
    for _ in $(seq "$RUNS"); do
      for i in "${!dirs[@]}"; do
        h=$(home "$i")
        # shellcheck disable=SC2086 # the command is words
        HELM_CONFIG_HOME=$h/c HELM_DATA_HOME=$h/d HELM_CACHE_HOME=$h/k \
          /usr/bin/time -o "$work/t" -f "%e %U" "$HELM" hooks $command < "$work/$input" >/dev/null 2>&1 || true
        times[$i]="${times[$i]:-} $(tr ' ' / < "$work/t")"
      done
    done
    for i in "${!dirs[@]}"; do
      # shellcheck disable=SC2086 # one argument per run
      python3 - "$input" "$command" "$i" ${times[$i]} <<'PY'
import statistics, sys
input, command, build, *runs = sys.argv[1:]
wall = sorted(float(r.split("/")[0]) for r in runs)
user = sorted(float(r.split("/")[1]) for r in runs)
print(f"{input:13} {command:15} build {build}: wall {statistics.median(wall):.2f} s "
      f"({wall[0]:.2f}-{wall[-1]:.2f}), user {statistics.median(user):.2f} s ({user[0]:.2f}-{user[-1]:.2f})")
PY
    done
    unset times
  done
done
echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/')"
