# Sourced by the benchmark scripts: wall-clock helpers and the bed's floor (how long one
# hook of SECS seconds takes from creation to its end, since no tool can beat it).
# ELAPSED_DIGITS (default 2): decimals of `elapsed`.

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" -v d="${ELAPSED_DIGITS:-2}" 'BEGIN { printf "%.*f", d, b - a }'; }

# One Job of SECS seconds in namespace $1, creation to Complete; prints the seconds.
floor_job() {
  local ns=$1 t0 t1
  t0=$(now)
  kubectl -n "$ns" create -f - >/dev/null <<EOF2
apiVersion: batch/v1
kind: Job
metadata: {name: floor}
spec:
  backoffLimit: 0
  template:
    metadata: {annotations: {hooks-test/duration: "${SECS}s"}}
    spec:
      restartPolicy: Never
      containers: [{name: main, image: registry.invalid/hook:1}]
EOF2
  kubectl -n "$ns" wait --for=condition=Complete job/floor --timeout=120s >/dev/null
  t1=$(now)
  kubectl -n "$ns" delete job floor --wait=false >/dev/null
  elapsed "$t0" "$t1"
}

# One bare Pod of SECS seconds in namespace $1, creation to Succeeded; prints the seconds.
floor_pod() {
  local ns=$1 t0 t1
  t0=$(now)
  kubectl -n "$ns" create -f - >/dev/null <<EOF2
apiVersion: v1
kind: Pod
metadata: {name: floor, annotations: {hooks-test/duration: "${SECS}s"}}
spec:
  restartPolicy: Never
  containers: [{name: main, image: registry.invalid/hook:1}]
EOF2
  kubectl -n "$ns" wait --for=jsonpath='{.status.phase}'=Succeeded pod/floor --timeout=120s >/dev/null
  t1=$(now)
  kubectl -n "$ns" delete pod floor --wait=false >/dev/null
  elapsed "$t0" "$t1"
}

# The real node's floor: N hooks' worth of KIND (Job or Pod) that sleep SECS, created at
# once by one kubectl (namespace $1, count $2), until the last has completed; prints the
# seconds.
floor_real() {
  local ns=$1 n=$2 t0 t1 i
  {
    echo "apiVersion: v1"
    echo "kind: List"
    echo "items:"
    for i in $(seq "$n"); do
      if [ "${KIND:-Job}" = Job ]; then
        cat <<EOF2
- apiVersion: batch/v1
  kind: Job
  metadata: {name: floor-$i, labels: {floor: "1"}}
  spec:
    backoffLimit: 0
    template:
      spec:
        restartPolicy: Never
        nodeSelector: {hooks-test/real-node: "true"}
        tolerations: [{key: hooks-test/real-node, operator: Equal, value: "true", effect: NoExecute}]
        containers: [{name: main, image: busybox, command: [sleep, "$SECS"]}]
EOF2
      else
        cat <<EOF2
- apiVersion: v1
  kind: Pod
  metadata: {name: floor-$i, labels: {floor: "1"}}
  spec:
    restartPolicy: Never
    nodeSelector: {hooks-test/real-node: "true"}
    tolerations: [{key: hooks-test/real-node, operator: Equal, value: "true", effect: NoExecute}]
    containers: [{name: main, image: busybox, command: [sleep, "$SECS"]}]
EOF2
      fi
    done
  } >"$work/floor.yaml"
  t0=$(now)
  kubectl -n "$ns" create -f "$work/floor.yaml" >/dev/null
  if [ "${KIND:-Job}" = Job ]; then
    kubectl -n "$ns" wait --for=condition=Complete job -l floor=1 --timeout=300s >/dev/null
  else
    kubectl -n "$ns" wait --for=jsonpath='{.status.phase}'=Succeeded pod -l floor=1 --timeout=300s >/dev/null
  fi
  t1=$(now)
  kubectl -n "$ns" delete jobs,pods -l floor=1 --wait=true >/dev/null
  elapsed "$t0" "$t1"
}
