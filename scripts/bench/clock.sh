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
