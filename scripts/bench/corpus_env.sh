# What corpus.sh and bench-hooks.sh share before their first chart: the bed up and its
# environment, Helm with dist/hooks in a home of its own (scripts/bench/helm_home.sh), the
# connection flags, and the helpers (clock, sweep, corpus_lib).
# Needs: root, HOOKS_CACHE, REL_PREFIX (a letter); sets HELM, run_id, REL, conn.
testbed/cluster.sh up >&2
eval "$(testbed/cluster.sh env)"
HELM=${HELM:-$HOOKS_CACHE/bin/helm}
run_id=$(date +%s%N | tail -c 6)
REL=$REL_PREFIX$run_id
# shellcheck source=scripts/bench/helm_home.sh
. "$root/scripts/bench/helm_home.sh"
bench_home "cp-$run_id-"
"$HELM" hooks version >/dev/null
conn=(--kube-apiserver "$HELM_KUBEAPISERVER" --kube-token "$HELM_KUBETOKEN")
# shellcheck source=scripts/bench/clock.sh
. scripts/bench/clock.sh
# shellcheck source=scripts/bench/sweep.sh
. scripts/bench/sweep.sh
# shellcheck source=scripts/bench/corpus_lib.sh
. scripts/bench/corpus_lib.sh
