# Sourced by the benchmark scripts that install the plugin: a throw-away Helm home with
# dist/hooks (or HOOKS_PLUGIN_DIR) installed, and on exit the background jobs in `pids`
# stopped and this run's namespaces (those named PREFIX*) deleted, unless KEEP=1.
# Needs: root (the checkout), HELM, and the bed's environment.

# bench_home PREFIX: sets work, pids and HELM_*_HOME; installs the plugin.
bench_home() {
  bench_prefix=$1
  work=$(mktemp -d)
  pids=()
  trap bench_cleanup EXIT
  if [ -z "${HOOKS_PLUGIN_DIR:-}" ]; then
    make -s -C "$root" dist/hooks >&2
    HOOKS_PLUGIN_DIR=$root/dist/hooks
  fi
  export HELM_DATA_HOME=$work/data HELM_CONFIG_HOME=$work/config HELM_CACHE_HOME=$work/cache
  "$HELM" plugin install "$HOOKS_PLUGIN_DIR" >/dev/null
}

bench_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ "${KEEP:-0}" != 1 ]; then
    local mine
    mine=$(kubectl get namespaces -o name 2>/dev/null | grep "^namespace/$bench_prefix" || true)
    [ -z "$mine" ] || kubectl delete $mine --wait=false --ignore-not-found >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
