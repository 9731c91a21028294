#!/usr/bin/env bash
# `make e2e`: every end-to-end suite on one bed, in two lanes side by side, then the fault
# suites alone (docs/testing.md, "Running the suites").
#
# Most of an end-to-end test is waiting for the bed's pods, so two suites at a time finish
# in little more than the longer one's time. What must not overlap does not:
#  - the stock and host-functions runs of tests/e2e/deploy.rs (cluster-scoped objects with
#    fixed names: the crds-folder chart's CRDs, the aggregated ClusterRoles): the host one
#    starts only once the stock one has ended;
#  - tests/e2e/faults.rs restarts the bed's API server and the real node's kubelet and
#    containerd, so it runs after both lanes, alone, stock then host;
#  - deploy's interrupted upgrade (SIGINT to Helm mid-upgrade) runs alone after both lanes;
#  - tests/e2e/node.rs (real containers on the bed's real node) runs at the end of each
#    lane: whole with the stock build, its waits (not what the kubelet prints or how it
#    fails a container, the same for either build) with the host build.
# Each suite's output is printed whole when it ends; the exit code is 1 if any failed.
#
# Usage: scripts/e2e.sh   (the bed must be up and its environment exported: testbed/cluster.sh
#   env; dist/hooks and dist/hooks-host built). Environment: HELM_STOCK, HELM_HOST (the two
#   Helm builds), PLUGIN_STOCK, PLUGIN_HOST (the two plugin folders).
set -uo pipefail
cd "$(dirname "$0")/.."
: "${HELM_STOCK:?}" "${HELM_HOST:?}" "${PLUGIN_STOCK:?}" "${PLUGIN_HOST:?}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Build the suites' one test binary once, then run it per suite: two `cargo test` at once
# would queue on Cargo's lock of the target folder.
cargo test --no-run --features e2e --test e2e --message-format=json-render-diagnostics >"$work/build.json" || exit 1
exe=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "e2e":
        print(m["executable"])
' "$work/build.json") && [ -n "$exe" ] || exit 1

# Four tests at a time in each suite, not the harness's one per core: a test mostly waits on
# the bed's pods, so the suites took about 40% less time (run 204 → 117 s, deploy 141 → 101 s,
# node 130 → 82 s, measured on this 2-core machine with other builds running) and none
# failed for it (docs/testing.md, "Measured figures").
threads=4

# suite BUILD NAME [ARGS]: the tests of one suite, the module NAME of tests/e2e (ARGS: the
# test harness', e.g. --skip), with the stock or host-functions Helm and plugin; its output
# printed whole when it ends.
suite() {
  local build=$1 name=$2 helm plugin start=$SECONDS rc
  shift 2
  if [ "$build" = stock ]; then helm=$HELM_STOCK plugin=$PLUGIN_STOCK; else helm=$HELM_HOST plugin=$PLUGIN_HOST; fi
  HELM_BIN=$helm HOOKS_PLUGIN_DIR=$plugin "$exe" "$name::" --test-threads="$threads" "$@" >"$work/$build-$name.log" 2>&1
  rc=$?
  {
    flock 9
    echo "=== $name ($build build): $([ $rc = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
    cat "$work/$build-$name.log"
  } 9>"$work/print.lock"
  return $rc
}

# SIGINT to Helm mid-upgrade, timed against the upgrade's own Job: run after both lanes,
# alone. (Its Helm is started with SIGINT's default action: a lane is a background job,
# which a shell without job control starts with SIGINT ignored; tests/e2e/deploy.rs.)
INTERRUPT=an_interrupted_upgrade_is_refused_then_rolled_back

lane_one() {
  local rc=0
  suite stock deploy --skip "$INTERRUPT" || rc=1
  touch "$work/stock-deploy.done"
  suite stock run || rc=1
  suite stock real || rc=1
  suite stock node || rc=1
  # From lane two, the critical path by about 45 s (session 17: 573 against 621 s).
  suite stock kube || rc=1
  suite host sql || rc=1
  return $rc
}

lane_two() {
  local rc=0
  # Skipped in the host lane: the README's demo is the stock build's.
  suite host run --skip the_readmes_demo || rc=1
  while [ ! -e "$work/stock-deploy.done" ]; do sleep 1; done
  # Skipped in the host lane: what a chart's order and input say, the same code over the same
  # seam in either build (kube-prometheus-stack's subchart order, the portable key, one verdict
  # from three commands); the host lane is there for Helm's transport and storage.
  suite host deploy --skip "$INTERRUPT" --skip kube_prometheus_stack_deploys_in_its_declared_subchart_order \
    --skip a_chart_with_the_portable_key_installs_everywhere \
    --skip one_input_gets_one_verdict_from_lint_plan_and_deploy || rc=1
  suite stock testbed || rc=1
  # The stateful public charts (a queue, a database with its hooks; about a minute) here,
  # not beside real.rs in lane one, the critical path.
  suite stock stateful || rc=1
  suite stock helm || rc=1
  # The real node's waits through the host build's transport: what containers print and
  # how the kubelet fails them is the node's, the same for either build.
  suite host node --skip logs_of_every_container --skip a_retried_job --skip a_container_over \
    --skip a_crashing_deployment --skip a_readiness_probe_that_never --skip hook_succeeded \
    --skip a_preflights_report || rc=1
  return $rc
}

start=$SECONDS
lane_one &
one=$!
lane_two &
two=$!
rc=0
wait "$one" || rc=1
wait "$two" || rc=1
echo "=== both lanes ended after $((SECONDS - start)) s"
HELM_BIN=$HELM_STOCK HOOKS_PLUGIN_DIR=$PLUGIN_STOCK "$exe" "deploy::$INTERRUPT" --exact >"$work/interrupt.log" 2>&1
irc=$?
echo "=== deploy::$INTERRUPT alone (stock build): $([ $irc = 0 ] && echo passed || echo FAILED)"
cat "$work/interrupt.log"
[ $irc = 0 ] || rc=1
suite stock faults || rc=1
# The real node's faults (a kubelet or containerd restart, SIGTERM to Helm) are the node's
# and Helm's, the same for either build: the stock build's run covers them.
suite host faults --skip the_real_nodes_ --skip sigterm_to_helm || rc=1
echo "=== end to end: $([ $rc = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit $rc
