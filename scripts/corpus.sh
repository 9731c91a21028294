#!/usr/bin/env bash
# The public-chart corpus (testdata/charts/real, issue 47) through stock Helm and the README's
# pipe on the bed, chart by chart, with default values: a first step towards issue 47's
# corpus table, opt-in (make corpus). For each chart, each side in a fresh namespace:
#  - stock  `helm install R CHART --wait --timeout $TIMEOUT`;
#  - pipe   `helm upgrade --install R CHART --dry-run=server --disable-openapi-validation -o json
#           | helm hooks deploy - --timeout $TIMEOUT` (dist/hooks, a Helm home of its own);
# then from each side's release record (the Secret, decoded): its status, its objects
# (Kind/name of the manifest and hooks) and each hook's last run; both sides compared.
# Prints a Markdown table (chart, stock s, pipe s, ratio, same objects, hooks) and keeps the
# logs in OUT. A chart that stock Helm cannot install on the bed is listed with its error.
#
# Usage: scripts/corpus.sh   (or: make corpus, which also stops the bed after)
# Environment: CHARTS (default: every chart folder of testdata/charts/real), TIMEOUT (3m),
#   VALUES=hooks adds each chart's <chart>.hooks-values.yaml, OUT (default: a new folder
#   under /tmp, kept), KEEP=1 keeps the namespaces.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
TIMEOUT=${TIMEOUT:-3m}
OUT=${OUT:-$(mktemp -d /tmp/corpus.XXXXXX)}
mkdir -p "$OUT"
real=$root/testdata/charts/real
CHARTS=${CHARTS:-$(find "$real" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)}

testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
run_id=$(date +%s%N | tail -c 6)
REL=c$run_id
# shellcheck source=scripts/bench/helm_home.sh
. "$root/scripts/bench/helm_home.sh"
bench_home "cp-$run_id-"
"$HELM" hooks version >/dev/null
conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh
# shellcheck source=scripts/bench/sweep.sh
. scripts/bench/sweep.sh

# What a side's record holds: status, objects, each hook's last run, one line each; the
# namespace, which some charts put into names, as NS.
record() { # ns
  kubectl -n "$1" get secrets -l "owner=helm,name=$REL" -o json 2>/dev/null | python3 -c '
import base64, gzip, json, sys, yaml
items = json.load(sys.stdin)["items"]
if not items:
    print("status none"); sys.exit()
s = max(items, key=lambda s: int(s["metadata"]["labels"]["version"]))
r = json.loads(gzip.decompress(base64.b64decode(base64.b64decode(s["data"]["release"]))))
print("status", r["info"]["status"])
objs = [d["kind"] + "/" + d["metadata"]["name"] for d in yaml.safe_load_all(r.get("manifest", "")) if d and "kind" in d]
print("objects", " ".join(sorted(objs + ["hook:" + h["kind"] + "/" + h["name"] for h in r.get("hooks") or []])))
print("hooks", " ".join(sorted(h["name"] + "=" + ((h.get("last_run") or {}).get("phase") or "-") for h in r.get("hooks") or [])))
' | sed "s/$1/NS/g"
}

rows=()
for chart in $CHARTS; do
  path=$real/$chart
  [ -f "$path/Chart.yaml" ] || continue
  args=()
  [ "${VALUES:-}" != hooks ] || [ ! -f "$real/$chart.hooks-values.yaml" ] || args=(-f "$real/$chart.hooks-values.yaml")
  declare -A t=() rc=()
  for side in stock pipe; do
    ns=cp-$run_id-${chart:0:20}-$side
    kubectl create namespace "$ns" >/dev/null
    log=$OUT/$chart-$side.log
    t0=$(now)
    if [ "$side" = stock ]; then
      "$HELM" install "$REL" "$path" -n "$ns" --wait --timeout "$TIMEOUT" "${args[@]}" >"$log" 2>&1 && rc[$side]=0 || rc[$side]=$?
    else
      { "$HELM" upgrade --install "$REL" "$path" -n "$ns" --dry-run=server --disable-openapi-validation -o json "${args[@]}" 2>"$log.dry" || true; } |
        "$HELM" hooks deploy - -n "$ns" --timeout "$TIMEOUT" "${conn[@]}" >"$log" 2>&1 && rc[$side]=0 || rc[$side]=$?
    fi
    t[$side]=$(elapsed "$t0" "$(now)")
    record "$ns" >"$OUT/$chart-$side.record"
    "$HELM" uninstall "$REL" -n "$ns" --timeout 2m >>"$OUT/uninstall.log" 2>&1 || true
    sweep_release_cluster "$REL" "$ns"
    [ "${KEEP:-0}" = 1 ] || kubectl delete namespace "$ns" --wait=true --timeout=120s >/dev/null 2>&1 || true
  done
  s=$OUT/$chart-stock.record p=$OUT/$chart-pipe.record
  same=$([ "$(grep ^objects "$s")" = "$(grep ^objects "$p")" ] && echo same || echo DIFFERENT)
  hooks=$([ "$(grep ^hooks "$s")" = "$(grep ^hooks "$p")" ] && echo "same ($(grep ^hooks "$s" | wc -w | awk '{print $1 - 1}'))" || echo DIFFERENT)
  status="$(grep ^status "$s" | cut -d' ' -f2) / $(grep ^status "$p" | cut -d' ' -f2)"
  if [ "${rc[stock]}" != 0 ]; then
    why=$(grep -m1 -i "error" "$OUT/$chart-stock.log" | cut -c1-120 || true)
    row="| $chart | fails (${t[stock]} s) | ${t[pipe]} s (exit ${rc[pipe]}) | — | $same | $hooks | $status: stock: ${why:-exit ${rc[stock]}} |"
  else
    ratio=$(awk -v a="${t[stock]}" -v b="${t[pipe]}" 'BEGIN { printf "%.2fx", b / a }')
    row="| $chart | ${t[stock]} s | ${t[pipe]} s (exit ${rc[pipe]}) | $ratio | $same | $hooks | $status |"
  fi
  echo "$row" | tee -a "$OUT/table.md" >&2
  rows+=("$row")
  unset t rc
done
echo "| chart | stock | pipe | ratio | same objects | hooks' last runs | status (stock / pipe) |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo "outputs in $OUT" >&2
