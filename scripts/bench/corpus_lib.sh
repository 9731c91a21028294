# shellcheck shell=bash disable=SC2034,SC2154  # sourced: its globals are corpus.sh's
# Sourced by scripts/corpus.sh: one chart's life cycle on one side, and the comparison of the
# two sides step by step. Needs: HELM, REL, TIMEOUT, OUT, conn (the plugin's connection
# flags), the bed's environment, scripts/bench/clock.sh and sweep.sh.

STEPS="install test upgrade rollback uninstall"
record_py=$root/scripts/bench/corpus_record.py

# chart_setup CHART: path, args (values), fixed (a namespace the chart must live in, or
# empty), mask (a sed -E script for names a chart makes at random at each render, which
# two renders never share), crd_new (the CRDs of its crds/ folders the bed lacks: deleted after each side, so
# that both start without them) and crds_first (1 when its templates make objects of those
# kinds: the pipe's first install prints them first and renders client-side, as the
# README says).
chart_setup() {
  path=$real/$1 args=() fixed="" mask="" crd_new=() crds_first=0
  [ -f "$path/Chart.yaml" ] || return 1
  [ "${VALUES:-hooks}" != hooks ] || [ ! -f "$real/$1.hooks-values.yaml" ] || args=(-f "$real/$1.hooks-values.yaml")
  case $1 in
    # istio's docs install base and istiod into istio-system (their objects name it).
    istio-base|istiod) fixed=istio-system ;;
    # Its UI test Pod is named with randAlphaNum 5.
    jenkins) mask='s/-ui-test-[a-z0-9]{5}\b/-ui-test-RANDOM/g' ;;
  esac
  local crds name kind used
  crds=$("$HELM" show crds "$path" 2>/dev/null | python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and d.get("kind") == "CustomResourceDefinition":
        print(d["metadata"]["name"], d["spec"]["names"]["kind"])')
  [ -n "$crds" ] || return 0
  used=" $("$HELM" template "$REL" "$path" "${args[@]}" 2>/dev/null | sed -n 's/^kind: *//p' | sort -u | tr '\n' ' ')"
  while read -r name kind; do
    kubectl get crd "$name" >/dev/null 2>&1 || crd_new+=("$name")
    case $used in *" $kind "*) crds_first=1 ;; esac
  done <<<"$crds"
}

# side_ns CHART SIDE: the namespace of one side, created (a fixed one once the other side's
# is gone); empty when it cannot be.
side_ns() {
  local ns=${fixed:-cp-$run_id-${1:0:20}-$2}
  for _ in $(seq 180); do kubectl get namespace "$ns" >/dev/null 2>&1 || break; sleep 1; done
  kubectl create namespace "$ns" >/dev/null 2>&1 || return 0
  for _ in $(seq 100); do kubectl -n "$ns" get serviceaccount default >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$ns"
}

# The commands of each step, stock's and the pipe's (the README's).
stock_step() { # step ns
  case $1 in
    install) "$HELM" install "$REL" "$path" -n "$2" --wait --timeout "$TIMEOUT" "${args[@]}" ;;
    test) "$HELM" test "$REL" -n "$2" --timeout "$TIMEOUT" ;;
    upgrade) "$HELM" upgrade "$REL" "$path" -n "$2" --wait --timeout "$TIMEOUT" "${args[@]}" ;;
    rollback) "$HELM" rollback "$REL" 1 -n "$2" --wait --timeout "$TIMEOUT" ;;
    uninstall) "$HELM" uninstall "$REL" -n "$2" --wait --timeout "$TIMEOUT" ;;
  esac
}
pipe_step() { # step ns log
  local par=()
  [ -z "${PARALLEL:-}" ] || par=(--parallel "$PARALLEL") # the pipe's --parallel (default: the plugin's)
  case $1 in
    install|upgrade)
      if [ "$1" = install ] && [ "$crds_first" = 1 ]; then
        { "$HELM" show crds "$path"
          "$HELM" upgrade --install "$REL" "$path" -n "$2" --dry-run=client -o json "${args[@]}" 2>"$3.dry" || true; }
      else
        "$HELM" upgrade --install "$REL" "$path" -n "$2" --dry-run=server --disable-openapi-validation -o json "${args[@]}" 2>"$3.dry" || true
      fi | "$HELM" hooks deploy - -n "$2" --timeout "$TIMEOUT" "${par[@]}" "${conn[@]}" ;;
    test) "$HELM" hooks run "$REL" --event test -n "$2" --timeout "$TIMEOUT" "${par[@]}" "${conn[@]}" ;;
    rollback) "$HELM" hooks rollback "$REL" 1 -n "$2" --timeout "$TIMEOUT" "${par[@]}" "${conn[@]}" ;;
    uninstall) "$HELM" hooks uninstall "$REL" -n "$2" --timeout "$TIMEOUT" "${par[@]}" "${conn[@]}" ;;
  esac
}

# run_step SIDE STEP NS: runs it, times it (t[SIDE.STEP]), keeps its exit code (rc[...]) and
# the record after it ($dir/SIDE-STEP.record; after uninstall, what is left).
run_step() {
  local side=$1 step=$2 ns=$3 log=$dir/$1-$2.log t0
  t0=$(now)
  # shellcheck disable=SC2094 # pipe_step writes $log.dry, not $log
  if [ "$side" = stock ]; then stock_step "$step" "$ns" >"$log" 2>&1; else pipe_step "$step" "$ns" "$log" >"$log" 2>&1; fi &&
    rc[$side.$step]=0 || rc[$side.$step]=$?
  t[$side.$step]=$(elapsed "$t0" "$(now)")
  echo "exit ${rc[$side.$step]} time ${t[$side.$step]}" >"$dir/$side-$step.exit"
  if [ "$step" = uninstall ]; then
    python3 "$record_py" left "$ns" "$REL" "$dir/$side.objects.json" >"$dir/$side-$step.record"
  else
    python3 "$record_py" record "$ns" "$REL" "$dir/$side.objects.json" >"$dir/$side-$step.record"
  fi
  [ -z "$mask" ] || sed -i -E "$mask" "$dir/$side-$step.record"
}
field() { sed -n "s/^$1 //p" "$2" 2>/dev/null; } # NAME RECORD

# lifecycle SIDE NS: install, test (where the chart has test hooks), upgrade, rollback to
# revision 1, uninstall; a step that cannot follow is skipped (skip[SIDE.STEP] says why).
lifecycle() {
  local side=$1 ns=$2
  run_step "$side" install "$ns"
  if [ "${rc[$side.install]}" != 0 ]; then
    skip[$side.test]="install failed" skip[$side.upgrade]="install failed" skip[$side.rollback]="install failed"
  else
    if [ "$(field tests "$dir/$side-install.record")" -gt 0 ] 2>/dev/null; then run_step "$side" test "$ns"; else skip[$side.test]="no tests"; fi
    run_step "$side" upgrade "$ns"
    run_step "$side" rollback "$ns"
  fi
  if [ "$(field status "$dir/$side-install.record")" = none ] && [ "${rc[$side.install]}" != 0 ]; then
    skip[$side.uninstall]="no release"
  else
    run_step "$side" uninstall "$ns"
  fi
}

# side_cleanup NS: whatever is left of the release, on the cluster too, and the namespace,
# so that the other side (and the next chart) starts as this one did.
side_cleanup() {
  local ns=$1
  if kubectl -n "$ns" get secrets -l "owner=helm,name=$REL" -o name 2>/dev/null | grep -q .; then
    "$HELM" uninstall "$REL" -n "$ns" --no-hooks --timeout 2m >>"$OUT/cleanup.log" 2>&1 || true
    kubectl -n "$ns" delete secrets -l "owner=helm,name=$REL" >/dev/null 2>&1 || true
  fi
  sweep_release_cluster "$REL" "$ns"
  [ ${#crd_new[@]} = 0 ] || kubectl delete crd "${crd_new[@]}" --ignore-not-found --wait=true --timeout=120s >/dev/null 2>&1 || true
  [ "${KEEP:-0}" = 1 ] || kubectl delete namespace "$ns" --wait=true --timeout=180s >/dev/null 2>&1 || true
}

# why SIDE STEP: the first error line of its log, for a table cell.
why() {
  local w
  w=$(grep -m1 -iE "^error|error:" "$dir/$1-$2.log" 2>/dev/null | cut -c1-140 | sed 's/|/\\|/g' || true)
  echo "${w:-exit ${rc[$1.$2]}}"
}

# cell STEP: the comparison of both sides' STEP, for the table, in c; counted in verdict[].
cell() {
  local step=$1 s=$dir/stock-$1.record p=$dir/pipe-$1.record diffs="" f n
  if [ ! -f "$s" ] && [ ! -f "$p" ]; then
    verdict[$step.na]=$((${verdict[$step.na]:-0} + 1))
    c="— (${skip[stock.$step]:-${skip[pipe.$step]:-}})"
    return
  fi
  if [ ! -f "$s" ] || [ "${rc[stock.$step]:-1}" != 0 ]; then
    verdict[$step.stock]=$((${verdict[$step.stock]:-0} + 1))
    c="stock fails: $([ -f "$s" ] && why stock "$step" || echo "${skip[stock.$step]}"); pipe: $([ -f "$p" ] && echo "exit ${rc[pipe.$step]}" || echo "${skip[pipe.$step]}")"
    return
  fi
  if [ ! -f "$p" ]; then
    verdict[$step.diff]=$((${verdict[$step.diff]:-0} + 1))
    c="DIFFERENT: pipe skipped (${skip[pipe.$step]})"
    return
  fi
  for f in status revision history objects hooks records left kept-only; do
    [ "$(field "$f" "$s")" = "$(field "$f" "$p")" ] || diffs+=" $f"
  done
  [ "${rc[pipe.$step]}" = 0 ] || diffs+=" exit ${rc[pipe.$step]}: $(why pipe "$step")"
  if [ -n "$diffs" ]; then
    verdict[$step.diff]=$((${verdict[$step.diff]:-0} + 1))
    c="DIFFERENT:$diffs"
    return
  fi
  verdict[$step.alike]=$((${verdict[$step.alike]:-0} + 1))
  case $step in
    install) c="alike ($(field hooks "$s" | wc -w) hooks)" ;;
    test) c="alike ($(field tests "$dir/stock-install.record") tests)" ;;
    upgrade|rollback) c="alike (rev $(field revision "$s"))" ;;
    uninstall)
      n=$(field left "$s")
      if [ "$n" = - ]; then c="alike (nothing left)"
      else
        c="alike (left: $(echo "$n" | tr ' ' '\n' | grep -c '(keep)' || true) keep, $(echo "$n" | tr ' ' '\n' | grep -c '(hook)' || true) hooks$([ "$(field kept-only "$s")" = yes ] || echo ", OTHERS"))"
      fi ;;
  esac
}
