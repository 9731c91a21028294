# Sourced by the bed benchmarks: starts `kubectl proxy` and the request-counting proxy
# (count_proxy.py) in front of it, both on loopback ports the kernel picks, and writes
# $work/proxy.kubeconfig pointing at the counter. Needs $work and the pids array of the
# caller, whose clean-up kills them; sets kport (kubectl proxy) and cport (the counter);
# `count` prints the requests so far.
start_count_proxy() {
  kubectl proxy --port=0 >"$work/kproxy.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q 'Starting to serve' "$work/kproxy.out" && break; sleep 0.1; done
  kport=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$work/kproxy.out" | head -1)
  python3 scripts/bench/count_proxy.py "$kport" "$work/count" >"$work/cproxy.out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/cproxy.out" ] && break; sleep 0.1; done
  cport=$(head -1 "$work/cproxy.out")
  cat >"$work/proxy.kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters: [{name: p, cluster: {server: "http://127.0.0.1:$cport"}}]
users: [{name: p, user: {}}]
contexts: [{name: p, context: {cluster: p, user: p}}]
current-context: p
KUBECONFIG
}
count() { cat "$work/count"; }
