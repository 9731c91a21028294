#!/usr/bin/env bash
# Runs every fuzz target for a bounded time (default 90 s each), one after
# another, seeded from seeds/<target> and growing corpus/<target>.
# Usage: fuzz/run-all.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-90}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    dict=()
    case $t in input_plan|manifest|cli) dict=(-dict=dict/yaml.dict) ;; esac
    echo "== $t (${secs}s)"
    if ! cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "${dict[@]}" \
        > "artifacts/$t.log" 2>&1 < /dev/null; then
        echo "   FAILED: see fuzz/artifacts/$t.log and fuzz/artifacts/$t/"
        status=1
    fi
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "artifacts/$t.log" | sed 's/^/   /' || true
done
exit $status
