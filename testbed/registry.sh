#!/usr/bin/env bash
# A throw-away OCI registry (CNCF distribution, built by testbed/build.sh registry) on a free
# 127.0.0.1 port, its storage and pid in DIR. The caller stops it with `down DIR` from its
# own EXIT trap (scripts/e2e-dist.sh does).
#
# Usage: testbed/registry.sh up DIR     start; prints HOST:PORT once /v2/ answers
#        testbed/registry.sh down DIR   stop the registry whose pid is in DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=testbed/versions.sh
. "$here/versions.sh"
cmd=${1:?usage: registry.sh up|down DIR}
dir=${2:?usage: registry.sh up|down DIR}

case $cmd in
up)
  mkdir -p "$dir/storage"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$dir/config.yml" <<YAML
version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: $dir/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$port
YAML
  # The registry's OpenTelemetry export is off: nothing may leave loopback.
  OTEL_SDK_DISABLED=true OTEL_TRACES_EXPORTER=none \
    "$HOOKS_CACHE/bin/registry" serve "$dir/config.yml" >"$dir/registry.log" 2>&1 &
  echo $! >"$dir/registry.pid"
  for _ in $(seq 100); do
    if curl -fsS "http://127.0.0.1:$port/v2/" >/dev/null 2>&1; then
      echo "127.0.0.1:$port"
      exit 0
    fi
    kill -0 "$(cat "$dir/registry.pid")" 2>/dev/null || break
    sleep 0.1
  done
  echo "registry.sh: the registry did not start; its log:" >&2
  cat "$dir/registry.log" >&2
  exit 1
  ;;
down)
  [ -f "$dir/registry.pid" ] || exit 0
  pid=$(cat "$dir/registry.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$dir/registry.pid"
  ;;
*) echo "usage: registry.sh up|down DIR" >&2; exit 2 ;;
esac
