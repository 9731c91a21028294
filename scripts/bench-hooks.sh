#!/usr/bin/env bash
# Hooks at work (issue 47): the hook-heavy charts of testdata/charts/real, their hooks run by
# stock Helm and by the README's pipe at `--parallel $PARALLEL`, side by side. Opt-in (make
# bench-hooks). For each chart:
#   - the plan of its rendered templates (`helm template | helm hooks plan - --parallel N`:
#     each event's order, waves, critical path, hints), in OUT/<chart>/plan.txt, and, after
#     the pipe's first install, the plan of the stored release (`helm hooks plan R
#     --all-events`, with the estimate from the hooks' last runs), in plan-release.txt;
#   - RUNS runs, alternating which side goes first, each side in a fresh namespace of its
#     own: install, test (where the chart has test hooks), uninstall —
#       stock  helm install --wait | helm test | helm uninstall --wait
#       pipe   helm upgrade --install --dry-run=server ... -o json | helm hooks deploy -
#              --parallel N | helm hooks run --event test --parallel N | helm hooks
#              uninstall --parallel N
#     (scripts/bench/corpus_lib.sh's steps, the same as scripts/corpus.sh's), both sides'
#     release records compared after each step (corpus_record.py: status, history, objects,
#     each hook's last run; after the uninstall what is left), the namespace and the
#     release's cluster-scoped leftovers swept between sides.
# A chart named advice/<chart> is a copy of testdata/charts/real/<chart> with
# testdata/charts/advice/<chart>.patch applied (helm.sh/hook-parallel on hooks that do not
# need each other; testdata/charts/advice/README.md), made in a temporary folder.
# Prints a Markdown table (medians of the runs; each step's outcomes over the runs) and keeps
# every log, record and plan in OUT/<chart>/run<i>/.
#
# Usage: scripts/bench-hooks.sh   (or: make bench-hooks, which also stops the bed after)
# Environment: CHARTS (default: ten hook-heavy charts and the two advice copies), RUNS (3),
#   PARALLEL (8), TIMEOUT (1m), OUT (default: a new folder under /tmp, kept), KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
TIMEOUT=${TIMEOUT:-1m} # each hook here takes seconds; a wait that cannot end costs TIMEOUT
RUNS=${RUNS:-3}
PARALLEL=${PARALLEL:-8}
OUT=${OUT:-$(mktemp -d /tmp/bench-hooks.XXXXXX)}
mkdir -p "$OUT"
CHARTS=${CHARTS:-consul kube-prometheus-stack kyverno airflow jupyterhub ingress-nginx velero hydra argo-cd temporal advice/consul advice/kyverno}
corpus=$root/testdata/charts/real

REL_PREFIX=h
# shellcheck source=scripts/bench/corpus_env.sh
. scripts/bench/corpus_env.sh

median() { printf '%s\n' "$@" | awk NF | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a == 0) print "—"; else printf "%.2fx", b / a }'; }

echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (+ changes)')  helm: $("$HELM" version --short)  RUNS=$RUNS PARALLEL=$PARALLEL TIMEOUT=$TIMEOUT  load: $(cut -d' ' -f1-3 /proc/loadavg)" |
  tee -a "$OUT/summary.txt" >&2
declare -A verdict=()
rows=()
for spec in $CHARTS; do
  chart=${spec#advice/} label=$chart
  if [ "$spec" != "$chart" ]; then
    # The advice copy: the chart and its hooks values, the patch applied.
    real=$work/advice label=$chart+parallel
    rm -rf "${real:?}/$chart" && mkdir -p "$real"
    cp -r "$corpus/$chart" "$real/" && cp "$corpus/$chart.hooks-values.yaml" "$real/"
    patch -s -p1 -d "$real/$chart" <"testdata/charts/advice/$chart.patch"
  else
    real=$corpus
  fi
  chart_setup "$chart" || { echo "$spec: no such chart" >&2; continue; }
  base=$OUT/$label
  mkdir -p "$base"
  "$HELM" template "$REL" "$path" -n "cp-$run_id-ns" "${args[@]}" 2>"$base/plan.err" |
    "$HELM" hooks plan - --parallel "$PARALLEL" >"$base/plan.txt" 2>>"$base/plan.err" || true
  declare -A times=() outcome=()
  for i in $(seq "$RUNS"); do
    dir=$base/run$i
    mkdir -p "$dir"
    declare -A t=() rc=() skip=()
    order="stock pipe"
    [ $((i % 2)) = 1 ] || order="pipe stock"
    for side in $order; do
      ns=$(side_ns "${label//+/-}" "$side")
      if [ -z "$ns" ]; then skip[$side.install]="bed: namespace not free"; continue; fi
      run_step "$side" install "$ns"
      if [ "${rc[$side.install]}" = 0 ] && [ "$(field tests "$dir/$side-install.record")" -gt 0 ] 2>/dev/null; then
        run_step "$side" test "$ns"
      else
        skip[$side.test]="no tests"
      fi
      if [ "$side" = pipe ] && [ "$i" = 1 ]; then
        "$HELM" hooks plan "$REL" -n "$ns" --all-events --parallel "$PARALLEL" "${conn[@]}" >"$base/plan-release.txt" 2>&1 || true
      fi
      run_step "$side" uninstall "$ns"
      side_cleanup "$ns"
    done
    for step in install test uninstall; do
      cell "$step"
      echo "run $i $step: $c (stock ${t[stock.$step]:--} s, pipe ${t[pipe.$step]:--} s)" | tee -a "$base/runs.txt" >&2
      outcome[$step]+=$(echo "$c" | cut -c1-160)$'\n'
      times[stock.$step]+=" ${t[stock.$step]:-}" times[pipe.$step]+=" ${t[pipe.$step]:-}"
    done
    unset t rc skip
  done
  row="| $label | $(field hooks "$base/run1/stock-install.record" | wc -w)"
  for step in install test uninstall; do
    # shellcheck disable=SC2086 # the times, one word each
    s=$(median ${times[stock.$step]}) p=$(median ${times[pipe.$step]})
    if [ "$s" = - ]; then row+=" | —"; else row+=" | $s / $p ($(ratio "$s" "$p"))"; fi
  done
  # Each step's outcome over the runs: "alike (…) ×3", or each different one.
  same=$(for step in install test uninstall; do
    printf '%s' "${outcome[$step]}" | grep -v '^— (no tests)' | sort | uniq -c |
      awk -v s="$step" '{ n = $1; $1 = ""; sub(/^ /, ""); printf "%s%s: %s ×%d", (NR > 1 ? ", " : ""), s, $0, n }'
    echo
  done | grep -v '^$' | paste -sd';' | sed 's/;/; /g; s/|/\\|/g')
  row+=" | $same |"
  echo "$row" | tee -a "$OUT/table.md" >&2
  rows+=("$row")
  unset times outcome
done
{
  echo
  echo "| chart | hooks | install: stock / pipe (s) | test | uninstall | outcomes (each run) |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  for step in install test uninstall; do
    echo "$step: ${verdict[$step.alike]:-0} alike, ${verdict[$step.diff]:-0} different, ${verdict[$step.stock]:-0} failed by stock, ${verdict[$step.na]:-0} not taken (runs)"
  done
} | tee -a "$OUT/summary.txt"
echo "outputs in $OUT" >&2
