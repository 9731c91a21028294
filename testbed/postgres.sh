#!/usr/bin/env bash
# A throw-away PostgreSQL server for Helm's sql storage driver (HELM_DRIVER=sql): the Debian
# package's binaries (apt-get install postgresql), a cluster of its own in the state dir,
# listening on a free 127.0.0.1 port and on a unix socket in the state dir; nothing else.
# Trust authentication: a test bed's database, reachable from this machine only.
#
# State: $HOOKS_POSTGRES_DIR, by default $HOOKS_CACHE/postgres. PostgreSQL refuses to run
# as root; as root the server runs as the `postgres` user, and when that user cannot reach
# the state dir (a HOOKS_CACHE under /root) the state lives in /var/tmp and the state dir
# is a symlink to it.
#
# Usage: testbed/postgres.sh up     start (idempotent); prints the env lines
#        testbed/postgres.sh env    the env lines of the running server:
#                                   export HELM_DRIVER_SQL_CONNECTION_STRING='…'
#        testbed/postgres.sh down   stop it (the data stays, for the next up)
set -euo pipefail

cmd=${1:?usage: postgres.sh up|env|down}
: "${HOOKS_CACHE:=$HOME/.cache/helm-hooks}"
dir=${HOOKS_POSTGRES_DIR:-$HOOKS_CACHE/postgres}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bindir" ] && [ -x "$bindir/initdb" ] || {
  echo "postgres.sh: no PostgreSQL server binaries in /usr/lib/postgresql (apt-get install -y postgresql)" >&2
  exit 1
}

as_server() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

env_lines() {
  local port
  port=$(cat "$dir/port")
  echo "export HELM_DRIVER_SQL_CONNECTION_STRING='host=$dir port=$port user=helm dbname=helm sslmode=disable'"
}

running() {
  [ -f "$dir/data/postmaster.pid" ] && as_server "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

case $cmd in
up)
  if [ ! -e "$dir" ]; then
    mkdir -p "$(dirname "$dir")"
    if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$(dirname "$dir")"; then
      real=/var/tmp/helm-hooks-postgres-$(printf %s "$dir" | sha256sum | cut -c1-12)
      mkdir -p "$real"
      ln -sfn "$real" "$dir"
    else
      mkdir -p "$dir"
    fi
    [ "$(id -u)" = 0 ] && chown postgres: "$(cd "$dir" && pwd -P)"
    chmod 700 "$(cd "$dir" && pwd -P)"
  fi
  # The server is given the real path: the symlink's folder may be closed to it.
  dir=$(cd "$dir" && pwd -P)
  if running; then
    env_lines
    exit 0
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_server "$bindir/initdb" -D "$dir/data" -U helm --auth=trust --encoding=UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2
      exit 1
    }
  fi
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$dir/port.new"
  as_server cp "$dir/port.new" "$dir/port" 2>/dev/null || cp "$dir/port.new" "$dir/port"
  rm -f "$dir/port.new"
  port=$(cat "$dir/port")
  as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  if ! as_server "$bindir/psql" -h "$dir" -p "$port" -U helm -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='helm'" | grep -q 1; then
    as_server "$bindir/createdb" -h "$dir" -p "$port" -U helm helm
  fi
  env_lines
  ;;
env)
  [ -e "$dir" ] && dir=$(cd "$dir" && pwd -P)
  running || { echo "postgres.sh: not running (testbed/postgres.sh up)" >&2; exit 1; }
  env_lines
  ;;
down)
  [ -e "$dir" ] && dir=$(cd "$dir" && pwd -P)
  [ -e "$dir/data/postmaster.pid" ] || exit 0
  as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
  ;;
*) echo "usage: postgres.sh up|env|down" >&2; exit 2 ;;
esac
