#!/usr/bin/env bash
# The helm-hooks test bed: a real Kubernetes control plane (etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler) with three kwok nodes in three zones, run by
# `kwokctl --runtime binary` from the binaries testbed/build.sh put in $HOOKS_CACHE/bin,
# and a real node beside it (a kubelet with containerd: testbed/realnode.sh) where pods
# that select and tolerate `hooks-test/real-node=true` run in real containers, and a
# default StorageClass whose claims testbed/provisioner binds to folders of the bed (volumes/).
# Everything listens on 127.0.0.1 only. See docs/testing.md.
#
# Usage: testbed/cluster.sh up|down|env|proxy|status
#   up      start the bed, or reuse it when its API server answers (idempotent)
#   down    stop every process of the bed and delete its state (also after a failed or
#           interrupted run); fails if any process of the bed is left
#   env     print `export` lines: KUBECONFIG, HELM_KUBEAPISERVER, HELM_KUBETOKEN,
#           HELM_KUBECAFILE, SSL_CERT_FILE, HOOKS_CACHE, PATH
#   proxy   start `kubectl proxy` on a free loopback port (or reuse it); prints its URL
#   status  say whether the bed is up
# Env: HOOKS_CACHE (default ~/.cache/helm-hooks), HOOKS_PAIR=compat (the previous Helm and
#      Kubernetes, in a cache folder of their own: testbed/versions.sh)
set -Eeuo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=testbed/versions.sh
. "$here/versions.sh"
bin=$HOOKS_CACHE/bin
export KWOK_WORKDIR=$HOOKS_CACHE/kwok
export PATH="$bin:$PATH"
name=hooks
cdir=$KWOK_WORKDIR/clusters/$name   # kwokctl's folder for the bed
kubeconfig=$cdir/kubeconfig.yaml    # admin (client certificate) kubeconfig written by kwokctl
bed=$cdir/bed                       # our own state: token, CA bundle, pids, log files
volumes=$bed/volumes                # one folder per PersistentVolume (testbed/provisioner)
export KUBECONFIG=$kubeconfig

up_ok=0
# The real node runs with the current pair only (testbed/build.sh builds its kubelet).
realnode=$([ "${HOOKS_PAIR:-}" = compat ] && echo 0 || echo 1)
log() { echo "cluster.sh: $*" >&2; }
die() { log "$*"; exit 1; }

kctl() { "$bin/kubectl" --kubeconfig "$kubeconfig" --request-timeout=10s "$@"; }

api_up() {
  [ -f "$kubeconfig" ] && kctl get --raw /readyz >/dev/null 2>&1
}

server_url() {
  sed -n 's/^ *server: *//p' "$kubeconfig" | head -n1
}

# Whether pid $1 runs one of our binaries (a stale pid file may name a reused pid).
ours() {
  local exe
  exe=$(readlink "/proc/$1/exe" 2>/dev/null) || return 1
  case $exe in "$bin"/*) return 0 ;; *) return 1 ;; esac
}

pid_alive() { [ -f "$1" ] && ours "$(cat "$1")"; }

# Stops the process whose pid is in file $1 (TERM, then KILL after 5 s).
stop_pidfile() {
  local f=$1 pid i
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if ours "$pid"; then
    kill "$pid" 2>/dev/null || true
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

# Pids of the bed's processes: those whose command line names the bed's work folder and
# whose executable is one of ours in $HOOKS_CACHE/bin (kwokctl runs them through symlinks
# in its own bin folder): all kwokctl components, the log helper and the proxy.
bed_pids() {
  local p
  for p in $(pgrep -f -- "$KWOK_WORKDIR/" 2>/dev/null); do
    ! ours "$p" || echo "$p"
  done
}

need_bins() {
  local b
  for b in kwokctl kwok etcd kube-apiserver kube-controller-manager kube-scheduler kubectl podlogs provisioner \
      $([ "$realnode" = 0 ] || echo kubelet pause registry); do
    [ -x "$bin/$b" ] || die "$bin/$b is missing: run testbed/build.sh (make testbed-build)"
  done
}

cmd_down() {
  # The real node first, while its mounts and cgroups are still known; it checks that the
  # machine is as before and fails the stop when it is not.
  local node_ok=0
  "$here/realnode.sh" down || node_ok=$?
  stop_pidfile "$bed/proxy.pid"
  stop_pidfile "$bed/podlogs.pid"
  # The provisioner before the API server, which it would only retry against; its folders
  # go with the bed's folder below.
  stop_pidfile "$bed/provisioner.pid"
  local known
  known=$(for f in "$cdir"/pids/*.pid; do [ ! -f "$f" ] || echo "$(cat "$f")"; done)
  if [ -d "$cdir" ]; then
    # (--kubeconfig: the only kubeconfig kwokctl may edit is the bed's own, deleted next.)
    "$bin/kwokctl" delete cluster --name "$name" --kubeconfig "$kubeconfig" \
      >"$HOOKS_CACHE/kwokctl-delete.log" 2>&1 ||
      log "kwokctl delete cluster failed (see $HOOKS_CACHE/kwokctl-delete.log); sweeping by hand"
  fi
  # Whatever is left (a half-created bed, a crashed kwokctl): end it by pid.
  local pids i
  pids=$(bed_pids)
  if [ -n "$pids" ]; then
    # shellcheck disable=SC2086
    kill $pids 2>/dev/null || true
    for i in $(seq 50); do [ -n "$(bed_pids)" ] || break; sleep 0.1; done
    pids=$(bed_pids)
    # shellcheck disable=SC2086
    [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
    sleep 0.2
  fi
  rm -rf "$cdir"
  pids=$(bed_pids)
  [ -z "$pids" ] || die "processes of the bed are still running: $pids"
  # Every volume went with the bed's folder; the real node's mounts of them went with the
  # node (realnode.sh down, which checks its own). Nothing of the bed may stay mounted.
  [ ! -e "$volumes" ] || die "volume folders are left in $volumes"
  if awk '{print $5}' /proc/self/mountinfo | grep -Fq "$cdir/"; then
    die "mounts of the bed are left: $(awk '{print $5}' /proc/self/mountinfo | grep -F "$cdir/" | tr '\n' ' ')"
  fi
  # kwokctl's components are not our children: once killed, init reaps them. Wait for that,
  # so that nothing of the bed shows in ps afterwards, not even <defunct>.
  for i in $(seq 50); do
    pids=""
    for p in $known; do [ ! -e "/proc/$p" ] || pids="$pids $p"; done
    [ -n "$pids" ] || break
    sleep 0.1
  done
  [ -z "$pids" ] || log "exited but not yet reaped by init:$pids"
  [ "$node_ok" = 0 ] || die "the real node did not stop cleanly (above)"
  log "bed is down"
}

# Starts the pod log helper (testbed/podlogs) unless it runs already.
ensure_podlogs() {
  pid_alive "$bed/podlogs.pid" && return
  mkdir -p "$bed/logs"
  setsid "$bin/podlogs" --kubeconfig "$kubeconfig" --dir "$bed/logs" \
    </dev/null >>"$cdir/logs/podlogs.log" 2>&1 9>&- &
  echo $! >"$bed/podlogs.pid"
}

# Starts the volume provisioner (testbed/provisioner) unless it runs already. Its folders are
# the bed's (volumes/), so `down` removes every volume with the bed.
ensure_provisioner() {
  pid_alive "$bed/provisioner.pid" && return
  mkdir -p "$volumes"
  setsid "$bin/provisioner" --kubeconfig "$kubeconfig" --dir "$volumes" \
    </dev/null >>"$cdir/logs/provisioner.log" 2>&1 9>&- &
  echo $! >"$bed/provisioner.pid"
}

# Everything the bed adds on top of kwokctl's cluster; each step is idempotent.
ensure_extras() {
  mkdir -p "$bed/logs"
  kctl apply -f "$here/testdata/node.yaml" >/dev/null
  kctl apply -f "$here/testdata/rbac.yaml" >/dev/null
  # The default StorageClass and its provisioner: claims bind on either node.
  kctl apply -f "$here/testdata/storageclass.yaml" >/dev/null
  ensure_provisioner
  # Pods without hooks-test/log get an empty log (rather than an error) from this default.
  : >"$bed/logs/empty.log"
  kctl apply -f - >/dev/null <<EOF
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata:
  name: hooks-test-empty
spec:
  selector: {}
  logs:
  - logsFile: $bed/logs/empty.log
EOF
  ensure_podlogs
  # The API server's CA, plus the system roots so that tools in an eval'ed shell (cargo,
  # curl) still reach the internet's registries through SSL_CERT_FILE.
  cat "$cdir/pki/ca.crt" >"$bed/ca-bundle.crt.tmp"
  [ ! -f /etc/ssl/certs/ca-certificates.crt ] || cat /etc/ssl/certs/ca-certificates.crt >>"$bed/ca-bundle.crt.tmp"
  mv "$bed/ca-bundle.crt.tmp" "$bed/ca-bundle.crt"
  # A TokenRequest token of the cluster-admin ServiceAccount, valid for a year (or as long
  # as the bed lives). Reused while the API server accepts it.
  if [ ! -s "$bed/token" ] || ! curl -fsS --max-time 5 --cacert "$cdir/pki/ca.crt" \
      -H "Authorization: Bearer $(cat "$bed/token")" "$(server_url)/api" >/dev/null 2>&1; then
    kctl -n kube-system create token hooks-admin --duration=8760h >"$bed/token.tmp"
    mv "$bed/token.tmp" "$bed/token"
  fi
  kctl wait --for=condition=Ready node -l type=kwok --timeout=60s >/dev/null
  # Pods can only be created once a namespace has its default ServiceAccount.
  local i
  for i in $(seq 100); do
    kctl -n default get serviceaccount default >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "the default ServiceAccount never appeared"
}

cmd_up() {
  need_bins
  if api_up; then
    ensure_extras
    [ "$realnode" = 0 ] || "$here/realnode.sh" up "$cdir"
    log "reusing the running bed ($(server_url))"
    return
  fi
  if [ -e "$cdir" ]; then
    log "a stale bed is in $cdir; removing it"
    cmd_down
  fi
  # A failed or interrupted start leaves nothing behind.
  trap 'exit 130' INT TERM
  trap 'if [ "$up_ok" != 1 ]; then log "start failed; stopping the bed"; cmd_down || true; fi' EXIT
  local start=$SECONDS
  "$bin/kwokctl" create cluster --name "$name" \
    --config "$here/testdata/kwokctl.yaml" --config "$here/testdata/stages.yaml" \
    --kube-apiserver-binary "$bin/kube-apiserver" \
    --kube-controller-manager-binary "$bin/kube-controller-manager" \
    --kube-scheduler-binary "$bin/kube-scheduler" \
    --kwok-controller-binary "$bin/kwok" \
    --etcd-binary "$bin/etcd" \
    --kubeconfig "" --wait 2m >"$HOOKS_CACHE/kwokctl-create.log" 2>&1 9>&- || {
      cat "$HOOKS_CACHE/kwokctl-create.log" >&2
      false
    }
  ensure_extras
  [ "$realnode" = 0 ] || "$here/realnode.sh" up "$cdir"
  up_ok=1
  log "bed is up in $((SECONDS - start))s: $(server_url)"
}

cmd_env() {
  api_up || die "the bed is not running: make cluster-up"
  [ -s "$bed/token" ] || die "no token in $bed: run make cluster-up"
  printf 'export HOOKS_CACHE=%q\n' "$HOOKS_CACHE"
  printf 'export PATH=%q:"$PATH"\n' "$bin"
  printf 'export KUBECONFIG=%q\n' "$kubeconfig"
  printf 'export HELM_KUBEAPISERVER=%q\n' "$(server_url)"
  printf 'export HELM_KUBETOKEN=%q\n' "$(cat "$bed/token")"
  printf 'export HELM_KUBECAFILE=%q\n' "$cdir/pki/ca.crt"
  printf 'export SSL_CERT_FILE=%q\n' "$bed/ca-bundle.crt"
}

# kubectl proxy on a loopback port the kernel picks; the URL is printed (and kept in
# $bed/proxy.url). It uses the admin kubeconfig; make cluster-down stops it.
cmd_proxy() {
  api_up || die "the bed is not running: make cluster-up"
  if pid_alive "$bed/proxy.pid" && [ -s "$bed/proxy.url" ] &&
      curl -fsS --max-time 3 "$(cat "$bed/proxy.url")/readyz" >/dev/null 2>&1; then
    cat "$bed/proxy.url"
    return
  fi
  stop_pidfile "$bed/proxy.pid"
  rm -f "$bed/proxy.url"
  : >"$cdir/logs/kubectl-proxy.log"
  setsid "$bin/kubectl" --kubeconfig "$kubeconfig" proxy --address=127.0.0.1 --port=0 \
    </dev/null >>"$cdir/logs/kubectl-proxy.log" 2>&1 9>&- &
  echo $! >"$bed/proxy.pid"
  local i addr=""
  for i in $(seq 100); do
    addr=$(sed -n 's/^Starting to serve on \(127\.0\.0\.1:[0-9]*\).*/\1/p' "$cdir/logs/kubectl-proxy.log")
    [ -z "$addr" ] || break
    sleep 0.1
  done
  [ -n "$addr" ] || die "kubectl proxy did not start: $(cat "$cdir/logs/kubectl-proxy.log")"
  echo "http://$addr" >"$bed/proxy.url"
  cat "$bed/proxy.url"
}

cmd_status() {
  if api_up; then
    echo "up: $(server_url)"
  else
    echo "down"
    return 1
  fi
}

# up, down and proxy take a lock, so that concurrent callers (parallel tests, two make
# targets) do not start things twice. Long-lived children get the lock's fd closed (9>&-).
lock() {
  mkdir -p "$HOOKS_CACHE"
  exec 9>"$HOOKS_CACHE/.bed.lock"
  flock -w 300 9 || die "another cluster.sh holds $HOOKS_CACHE/.bed.lock"
}

case "${1:-}" in
  up | down | proxy) lock ;;
esac
case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  env) cmd_env ;;
  proxy) cmd_proxy ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|env|proxy|status" >&2; exit 2 ;;
esac
