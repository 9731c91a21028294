#!/usr/bin/env bash
# The public-chart corpus (testdata/charts/real, issue 47) through stock Helm and the README's
# pipe on the bed, chart by chart, each through its life cycle, compared step by step. Opt-in
# (make corpus). For each chart, each side in a namespace of its own (istio-base and istiod
# in istio-system, as istio's docs install them: one side after the other), stock first:
#   step       stock                                  pipe (dist/hooks, a Helm home of its own)
#   install    helm install R CHART --wait            helm upgrade --install R CHART --dry-run=server
#                                                       --disable-openapi-validation -o json
#                                                       | helm hooks deploy -   (the README's)
#   test       helm test R                            helm hooks run R --event test
#   upgrade    helm upgrade R CHART --wait            the pipe again (the same chart and values)
#   rollback   helm rollback R 1 --wait               helm hooks rollback R 1
#   uninstall  helm uninstall R --wait                helm hooks uninstall R
# (test only where the chart has test hooks; each with --timeout $TIMEOUT). A chart whose
# templates make objects of its crds/ kinds is first installed through the pipe as the
# README says: `{ helm show crds CHART; helm upgrade --install ... --dry-run=client -o json; }`.
# After each step, from each side's release records (the Secrets, decoded by
# scripts/bench/corpus_record.py): status, revision, history, objects (Kind/name of the
# manifest and hooks), each hook's last run; after uninstall, the records left and which of
# the release's objects still exist (helm.sh/resource-policy: keep, hooks, others). The step
# is alike when every field is and both exit 0; a step stock Helm fails is listed with its
# error. Between sides and charts: the release's cluster-scoped leftovers swept
# (scripts/bench/sweep.sh), the crds/ CRDs it added deleted, the namespace deleted.
# Prints two Markdown tables (the comparison, each step's times) and the totals; keeps every
# log and record in OUT/<chart>/.
#
# Usage: scripts/corpus.sh   (or: make corpus, which also stops the bed after)
# Environment: CHARTS (default: every chart folder of testdata/charts/real), TIMEOUT (3m),
#   VALUES (default hooks: each chart's <chart>.hooks-values.yaml; VALUES=default: none), OUT
#   (default: a new folder under /tmp, kept), KEEP=1 keeps the namespaces, PARALLEL=N passes
#   --parallel N to the pipe's deploy, run, rollback and uninstall (scripts/bench-hooks.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
TIMEOUT=${TIMEOUT:-3m}
OUT=${OUT:-$(mktemp -d /tmp/corpus.XXXXXX)}
mkdir -p "$OUT"
real=$root/testdata/charts/real
CHARTS=${CHARTS:-$(find "$real" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)}

REL_PREFIX=c
# shellcheck source=scripts/bench/corpus_env.sh
. scripts/bench/corpus_env.sh

echo "date: $(date -u +%FT%TZ)  commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' (+ changes)')  helm: $("$HELM" version --short)  TIMEOUT=$TIMEOUT VALUES=${VALUES:-hooks}" |
  tee -a "$OUT/summary.txt" >&2
declare -A verdict=()
rows=() times=()
for chart in $CHARTS; do
  chart_setup "$chart" || continue
  dir=$OUT/$chart
  mkdir -p "$dir"
  declare -A t=() rc=() skip=()
  for side in stock pipe; do
    ns=$(side_ns "$chart" "$side")
    if [ -z "$ns" ]; then
      for step in $STEPS; do skip[$side.$step]="bed: namespace ${fixed:-?} not free"; done
      continue
    fi
    lifecycle "$side" "$ns"
    side_cleanup "$ns"
  done
  row="| $chart"
  if [ "${rc[stock.install]:-}" = 0 ]; then
    row+=" | ${t[stock.install]} s | ${t[pipe.install]:--} s | $(awk -v a="${t[stock.install]}" -v b="${t[pipe.install]:-0}" 'BEGIN { printf "%.2fx", b / a }')"
  else
    row+=" | fails | ${t[pipe.install]:--} s | —"
  fi
  trow="| $chart"
  for step in $STEPS; do
    cell "$step"
    row+=" | $c"
    trow+=" | ${t[stock.$step]:--} / ${t[pipe.$step]:--}"
  done
  echo "$row |" | tee -a "$OUT/table.md" >&2
  rows+=("$row |") times+=("$trow |")
  unset t rc skip
done
{
  echo "| chart | stock | pipe | ratio | install | test | upgrade | rollback | uninstall |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Each step's time, stock / pipe (s):"
  echo
  echo "| chart | install | test | upgrade | rollback | uninstall |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${times[@]}"
  echo
  for step in $STEPS; do
    echo "$step: ${verdict[$step.alike]:-0} alike, ${verdict[$step.diff]:-0} different, ${verdict[$step.stock]:-0} failed by stock, ${verdict[$step.na]:-0} not taken"
  done
} | tee -a "$OUT/summary.txt"
echo "outputs in $OUT" >&2
