#!/usr/bin/env bash
# Is the Mermaid text of `-o markdown` accepted by the real Mermaid library?
# Renders every ```mermaid block of the given Markdown reports (default: the goldens,
# tests/golden/report/*.md) to PNG with mermaid-cli in a headless Chromium; a chart
# Mermaid cannot parse or draw fails the script. Opt-in (`make check-mermaid`), not part
# of `make test`: it needs a browser.
#
#   scripts/check-mermaid.sh [REPORT.md ...]     # check; PNGs in $OUT (default a temp dir)
#   OUT=docs/report scripts/check-mermaid.sh     # ... and keep the PNGs there
#
# What it installs, from the package registries only: Debian's chromium (apt-get, as root
# or through sudo) and, under $HOOKS_CACHE, npm's @mermaid-js/mermaid-cli with the
# mermaid and puppeteer it runs on. Puppeteer's own browser download is skipped
# (PUPPETEER_SKIP_DOWNLOAD): it is pointed at Debian's chromium instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# mermaid-cli 11 runs on Node 20 (12 wants Node 22) and brings Mermaid 11, what GitHub
# and GitLab render with today.
MMDC_VERSION=${MMDC_VERSION:-11.9.0}
MERMAID_VERSION=${MERMAID_VERSION:-11}
PUPPETEER_VERSION=${PUPPETEER_VERSION:-23}
HOOKS_CACHE=${HOOKS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-hooks}
tools=$HOOKS_CACHE/mermaid-cli-$MMDC_VERSION

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "check-mermaid: installing Debian's chromium" >&2
  as_root apt-get update -qq
  # Noto: the report's marks (✅ ❌ ◆) and text drawn as they are on GitHub.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core fonts-noto-color-emoji >&2
  chromium=$(command -v chromium)
fi

if [ ! -x "$tools/node_modules/.bin/mmdc" ]; then
  echo "check-mermaid: installing @mermaid-js/mermaid-cli@$MMDC_VERSION into $tools" >&2
  mkdir -p "$tools"
  PUPPETEER_SKIP_DOWNLOAD=1 npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
    "@mermaid-js/mermaid-cli@$MMDC_VERSION" "mermaid@$MERMAID_VERSION" "puppeteer@$PUPPETEER_VERSION" >&2
fi
mermaid=$(node -p "require('$tools/node_modules/mermaid/package.json').version")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# As root Chromium needs --no-sandbox; the inputs are this repository's own reports.
printf '{"executablePath": "%s", "args": ["--no-sandbox", "--disable-gpu"]}\n' "$chromium" >"$work/puppeteer.json"

out=${OUT:-$work/png}
mkdir -p "$out"
reports=("$@")
[ ${#reports[@]} -gt 0 ] || reports=(tests/golden/report/*.md)

failed=0
for report in "${reports[@]}"; do
  name=$(basename "$report" .md)
  blocks=$(grep -c '^```mermaid' "$report" || true)
  # The axis shows wall-clock times: UTC, as the report's heading.
  if TZ=UTC "$tools/node_modules/.bin/mmdc" -q -p "$work/puppeteer.json" -i "$report" -o "$work/$name.md" \
       -e png -s 2 -b white -w 1200 >"$work/$name.log" 2>&1; then
    n=0
    for png in "$work/$name"-*.png; do
      [ -e "$png" ] || continue
      n=$((n + 1))
      suffix=$([ "$blocks" -gt 1 ] && echo "-$n" || true)
      cp "$png" "$out/$name$suffix.png"
    done
    if [ "$n" != "$blocks" ]; then
      echo "FAIL $report: $blocks mermaid blocks, $n rendered" >&2
      failed=1
    else
      echo "ok   $report: $blocks chart(s) rendered by Mermaid $mermaid -> $out/$name.png"
    fi
  else
    echo "FAIL $report: Mermaid $mermaid refused it:" >&2
    cat "$work/$name.log" >&2
    failed=1
  fi
done
exit $failed
