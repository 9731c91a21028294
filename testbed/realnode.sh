#!/usr/bin/env bash
# The bed's real node: a kubelet (built by testbed/build.sh from the pinned Kubernetes) with
# Debian's containerd, runc and CNI plugins, beside the kwok node. Pods that select and
# tolerate `hooks-test/real-node=true` run here in real containers; every other pod still
# goes to kwok. Images come from a registry on 127.0.0.1 that containerd uses in place of
# docker.io and registry.k8s.io; nothing reaches outside the machine. docs/testing.md,
# "Two nodes", says what runs where and why each setting is what it is.
#
# Usage: testbed/realnode.sh up CLUSTER_DIR | down | check | status | restart WHAT [SECONDS]
#   up     CLUSTER_DIR is kwokctl's folder of the bed (pki/, kubeconfig.yaml). Records the
#          machine's state first, so that `down` can put it back.
#   down   stops every process of the node, unmounts, deletes the bridge, the cgroups and
#          the fixed paths it made, restores the sysctls, then runs `check`
#   check  fails, naming each difference, unless the machine is as `up` found it
#   status says whether the node's kubelet runs
#   restart kubelet|containerd [SECONDS]: stops one daemon and starts it again (faults)
# cluster.sh calls up and down; it holds the bed's lock.
set -Eeuo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=testbed/versions.sh
. "$here/versions.sh"
bin=$HOOKS_CACHE/bin
rn=$HOOKS_CACHE/realnode      # everything of the node lives here, and goes with `down`
before=$HOOKS_CACHE/realnode.before  # the machine as `up` found it (kept until `check` passes)
node=localhost                # resolves to 127.0.0.1 without /etc/hosts: the API server dials it
label=hooks-test/real-node
bridge=hooks0
subnet=10.254.0.0/24          # pods' addresses, on a bridge with no gateway and no route out
# The sysctls the kubelet sets (protectKernelDefaults: false) and the CNI bridge may set.
sysctls="vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward"
# Fixed paths outside $rn that the kubelet, containerd or the CNI plugins create.
fixed="/var/lib/kubelet /var/log/containers /var/log/pods /var/lib/cni /run/netns /run/containerd /opt/containerd /etc/cni"
# cgroup v1 hierarchies the kubelet checks for its root (runc makes the others itself).
hierarchies="cpu cpuacct cpuset memory pids systemd blkio devices freezer"

log() { echo "realnode.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# The memory cgroup the bed was started in: the root of the node's pods, so that every
# container counts inside it. Kept from `up` for `down` and `check`, which may run in
# another cgroup (a later shell of the same machine).
cgroup_root() {
  if [ -s "$before/cgroup-root" ]; then cat "$before/cgroup-root"; else sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup; fi
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts "$@" detached, its pid written by itself (under job control `setsid` forks, and $!
# would name setsid).
daemon() {
  local pidfile=$1 logfile=$2
  shift 2
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" </dev/null >>"$logfile" 2>&1 9>&- &
  local i
  for i in $(seq 50); do [ -s "$pidfile" ] && return; sleep 0.05; done
  die "no pid from $*"
}

stop_pid() {
  local f=$1 pid i
  [ -s "$f" ] || return 0
  pid=$(cat "$f")
  kill "$pid" 2>/dev/null || true
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$f"
}

# ------------------------------------------------------------------------------------------
# The machine's state, before and after.

snapshot() {
  local s
  for s in $sysctls; do echo "sysctl $s=$(sysctl -n "$s" 2>/dev/null || echo absent)"; done
  for s in $fixed; do [ -e "$s" ] && echo "path $s" || true; done
  local root
  root=$(cgroup_root)
  for s in $hierarchies; do [ -d "/sys/fs/cgroup/$s$root" ] && echo "cgroup $s$root" || true; done
  # Mounts, links and processes are checked against nothing of ours (check), not a list.
}

cmd_check() {
  [ -f "$before/state" ] || { log "nothing recorded: the node was not started"; return 0; }
  local bad=0 now
  now=$(snapshot)
  if [ "$now" != "$(cat "$before/state")" ]; then
    log "the machine differs from before the node started:"
    diff <(cat "$before/state") <(echo "$now") | sed -n 's/^[<>] /  /p' >&2 || true
    bad=1
  fi
  if grep -Fq -e " $rn" -e " /run/netns/cni-" -e " /var/lib/kubelet" -e " /run/containerd" /proc/self/mountinfo; then
    log "mounts left:"; grep -F -e " $rn" -e " /run/netns/cni-" -e " /var/lib/kubelet" -e " /run/containerd" /proc/self/mountinfo | awk '{print "  " $5}' >&2
    bad=1
  fi
  if ip link show "$bridge" >/dev/null 2>&1; then log "the bridge $bridge is left"; bad=1; fi
  if [ -n "$(node_pids)" ]; then log "processes left: $(node_pids | tr '\n' ' ')"; bad=1; fi
  [ -e "$rn" ] && { log "$rn is left"; bad=1; }
  [ $bad = 0 ] || return 1
  rm -rf "$before"
}

# Processes of the node: the kubelet, containerd, the shims and every process in the node's
# pod cgroups (containers).
node_pids() {
  {
    pgrep -f -- "$rn/" 2>/dev/null || true
    local root
    root=$(cgroup_root)
    find "/sys/fs/cgroup/memory$root/kubepods" -name cgroup.procs -exec cat {} + 2>/dev/null || true
  } | sort -un | while read -r p; do [ "$p" != "$$" ] && [ -e "/proc/$p" ] && echo "$p"; done
}

# ------------------------------------------------------------------------------------------
# up

write_certs() {
  local pki=$1 dir=$rn/pki
  mkdir -p "$dir"
  openssl req -new -newkey rsa:2048 -nodes -keyout "$dir/kubelet-client.key" \
    -subj "/O=system:nodes/CN=system:node:$node" -out "$dir/kubelet-client.csr" 2>/dev/null
  openssl x509 -req -in "$dir/kubelet-client.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
    -CAcreateserial -CAserial "$dir/ca.srl" -days 30 -out "$dir/kubelet-client.crt" 2>/dev/null
}

write_configs() {
  local cluster=$1 registry=$2 port=$3 root=$4 server
  server=$(sed -n 's/^ *server: *//p' "$cluster/kubeconfig.yaml" | head -n1)
  cat >"$rn/kubelet.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: bed
  cluster: {server: "$server", certificate-authority: "$cluster/pki/ca.crt"}
users:
- name: kubelet
  user: {client-certificate: "$rn/pki/kubelet-client.crt", client-key: "$rn/pki/kubelet-client.key"}
contexts:
- name: bed
  context: {cluster: bed, user: kubelet}
current-context: bed
EOF
  # The kubelet listens on 127.0.0.1 only and lets the API server (which calls it without
  # credentials) read logs and exec; nothing else on the machine is a client of it.
  cat >"$rn/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $port
healthzPort: 0
readOnlyPort: 0
authentication:
  anonymous: {enabled: true}
  webhook: {enabled: false}
authorization: {mode: AlwaysAllow}
failCgroupV1: false
failSwapOn: false
cgroupDriver: cgroupfs
cgroupRoot: "$root"
cgroupsPerQOS: true
enforceNodeAllocatable: [pods]
containerRuntimeEndpoint: "unix://$rn/containerd/containerd.sock"
podLogsDir: "$rn/pod-logs"
makeIPTablesUtilChains: false
protectKernelDefaults: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
registerWithTaints:
- {key: $label, value: "true", effect: NoExecute}
staticPodPath: ""
serializeImagePulls: false
resolvConf: ""
# An address on the pods' bridge where no DNS server listens: pods do not resolve names here,
# and without one the kubelet warns on every pod (MissingClusterDNS).
clusterDNS: ["${subnet%.0/24}.10"]
clusterDomain: cluster.local
EOF
  mkdir -p "$rn/cni/net.d"
  cat >"$rn/cni/net.d/10-hooks.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "hooks",
  "plugins": [{
    "type": "bridge", "bridge": "$bridge", "isGateway": false, "ipMasq": false, "hairpinMode": false,
    "ipam": {"type": "host-local", "ranges": [[{"subnet": "$subnet"}]], "dataDir": "$rn/cni/ipam"}
  }]
}
EOF
  # The registry is the server itself, not a mirror in front of the public host: containerd
  # falls back to `server` when a mirror fails, and no request may leave the machine.
  # `_default` is every other registry host (quay.io, ghcr.io, ...): pulled from here too,
  # so an image the bed lacks is a pull error, never a request out.
  local h
  for h in docker.io registry.k8s.io _default; do
    mkdir -p "$rn/certs.d/$h"
    printf 'server = "http://%s"\n\n[host."http://%s"]\n  capabilities = ["pull", "resolve"]\n' \
      "$registry" "$registry" >"$rn/certs.d/$h/hosts.toml"
  done
  cat >"$rn/containerd.toml" <<EOF
version = 2
root = "$rn/containerd/root"
state = "$rn/containerd/state"
[grpc]
  address = "$rn/containerd/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$rn/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  # This machine withholds CAP_SYS_RESOURCE: no oom_score_adj may be lowered.
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$rn/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$rn/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$rn/certs.d"
EOF
}

# The kubelet's cgroup root must exist in each hierarchy; those we make are listed so that
# `down` removes exactly them (deepest first).
make_cgroups() {
  local root=$1 h path part cur
  : >"$rn/cgroups.made"
  for h in $hierarchies; do
    [ -d "/sys/fs/cgroup/$h" ] || continue
    cur=/sys/fs/cgroup/$h
    IFS=/ read -ra path <<<"${root#/}"
    for part in "${path[@]}"; do
      [ -n "$part" ] || continue
      if [ ! -d "$cur/$part" ]; then
        mkdir "$cur/$part"
        echo "$cur/$part" >>"$rn/cgroups.made"
        if [ "$h" = cpuset ]; then
          cat "$cur/cpuset.cpus" >"$cur/$part/cpuset.cpus"
          cat "$cur/cpuset.mems" >"$cur/$part/cpuset.mems"
        fi
      fi
      cur=$cur/$part
    done
  done
}

push_images() {
  local registry=$1
  # Tags users write: `busybox` (latest), a pinned one, and the sandbox image by its name.
  python3 "$here/realnode/image.py" "$registry" busybox "$(command -v busybox)" \
    library/busybox:latest library/busybox:1.36 library/busybox:1.36.1
  python3 "$here/realnode/image.py" "$registry" pause "$bin/pause" pause:3.10
}

start_containerd() {
  daemon "$rn/containerd.pid" "$rn/logs/containerd.log" containerd --config "$rn/containerd.toml"
  local i
  for i in $(seq 100); do [ -S "$rn/containerd/containerd.sock" ] && return; sleep 0.05; done
  die "containerd did not start: $(tail -5 "$rn/logs/containerd.log")"
}

start_kubelet() {
  daemon "$rn/kubelet.pid" "$rn/logs/kubelet.log" "$bin/kubelet" \
    --config "$rn/kubelet.yaml" --kubeconfig "$rn/kubelet.kubeconfig" \
    --root-dir "$rn/kubelet" --cert-dir "$rn/kubelet/pki" \
    --hostname-override "$node" --node-labels "$label=true" --v=1
}

# A fault of the node for tests/e2e/faults.rs: `restart kubelet|containerd [SECONDS]` stops
# the daemon (SIGTERM, as systemd would) and starts it again after SECONDS (default 0).
# Containers keep running through either, as on a real node: their shims outlive both.
cmd_restart() {
  local what=${1:?usage: realnode.sh restart kubelet|containerd [SECONDS]} pause=${2:-0}
  [ -s "$rn/$what.pid" ] || die "the node is not running"
  stop_pid "$rn/$what.pid"
  sleep "$pause"
  case $what in
    kubelet) start_kubelet ;;
    containerd) rm -f "$rn/containerd/containerd.sock"; start_containerd ;;
    *) die "restart what? kubelet or containerd" ;;
  esac
  log "$what restarted"
}

cmd_up() {
  local cluster=${1:?usage: realnode.sh up CLUSTER_DIR}
  local k c
  for k in kubelet pause; do [ -x "$bin/$k" ] || die "$bin/$k is missing: run testbed/build.sh (make tools)"; done
  for c in containerd containerd-shim-runc-v2 runc busybox ip openssl; do
    command -v "$c" >/dev/null || die "$c is missing: make tools installs Debian's containerd, runc, containernetworking-plugins, busybox-static and iproute2"
  done
  [ -x /usr/lib/cni/bridge ] || die "/usr/lib/cni/bridge is missing: make tools installs containernetworking-plugins"
  if [ -s "$rn/kubelet.pid" ] && kill -0 "$(cat "$rn/kubelet.pid")" 2>/dev/null; then
    log "reusing the running node"
    return
  fi
  [ ! -e "$rn" ] || cmd_down
  local start=$SECONDS root port registry
  root=$(cgroup_root)
  [ -n "$root" ] || die "no memory cgroup in /proc/self/cgroup (the node needs cgroup v1)"
  # A record of a machine state whose cgroup is gone (an earlier boot) describes nothing.
  if [ -s "$before/cgroup-root" ] && [ ! -d "/sys/fs/cgroup/memory$(cat "$before/cgroup-root")" ]; then
    rm -rf "$before"
  fi
  mkdir -p "$before" "$rn/logs"
  [ -s "$before/cgroup-root" ] || echo "$root" >"$before/cgroup-root"
  root=$(cgroup_root)
  [ -f "$before/state" ] || snapshot >"$before/state"
  make_cgroups "$root"
  write_certs "$cluster/pki"
  registry=$("$here/registry.sh" up "$rn/registry" 9>&-)
  echo "$registry" >"$rn/registry.addr"
  push_images "$registry"
  port=$(free_port)
  write_configs "$cluster" "$registry" "$port" "$root"
  start_containerd
  start_kubelet
  local i kc=(--kubeconfig "$cluster/kubeconfig.yaml" --request-timeout=10s)
  for i in $(seq 300); do
    if [ "$("$bin/kubectl" "${kc[@]}" get node "$node" -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" = True ]; then
      log "node $node Ready in $((SECONDS - start))s (registry $registry)"
      return
    fi
    kill -0 "$(cat "$rn/kubelet.pid")" 2>/dev/null || break
    sleep 0.1
  done
  tail -20 "$rn/logs/kubelet.log" >&2
  die "the kubelet did not make node $node Ready (log: $rn/logs/kubelet.log)"
}

# ------------------------------------------------------------------------------------------
# down

cmd_down() {
  [ -e "$rn" ] || [ -f "$before/state" ] || return 0
  local root p i
  root=$(cgroup_root)
  stop_pid "$rn/kubelet.pid"
  # The containers and their shims: every process in the pod cgroups, then the shims, then
  # containerd itself.
  for i in 1 2; do
    p=$(find "/sys/fs/cgroup/memory$root/kubepods" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u)
    # shellcheck disable=SC2086
    [ -z "$p" ] || kill -9 $p 2>/dev/null || true
    p=$(pgrep -f -- "containerd-shim-runc-v2 .*$rn/" 2>/dev/null || true)
    # shellcheck disable=SC2086
    [ -z "$p" ] || kill -9 $p 2>/dev/null || true
    sleep 0.2
  done
  stop_pid "$rn/containerd.pid"
  [ ! -f "$rn/registry.addr" ] || "$here/registry.sh" down "$rn/registry" || true
  # Mounts of the node, deepest first: the kubelet's bind mount of its root, pods' volumes,
  # containers' root file systems, sandboxes' /dev/shm and network namespaces.
  local m
  for i in 1 2 3; do
    m=$(awk '{print $5}' /proc/self/mountinfo | grep -E "^($rn/|/run/netns/cni-|/var/lib/kubelet|/run/containerd/)" | sort -r || true)
    [ -n "$m" ] || break
    for p in $m; do umount -l "$p" 2>/dev/null || true; done
  done
  ip link del "$bridge" 2>/dev/null || true
  # cgroups: the pods' below the root (the kubelet made them), then the levels we made.
  for p in $hierarchies; do
    [ -d "/sys/fs/cgroup/$p$root/kubepods" ] || continue
    find "/sys/fs/cgroup/$p$root/kubepods" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  [ ! -f "$rn/cgroups.made" ] || tac "$rn/cgroups.made" | while read -r p; do rmdir "$p" 2>/dev/null || true; done
  # Fixed paths: those that were not there before go; the others keep only what was theirs.
  for p in $fixed; do
    grep -qx "path $p" "$before/state" 2>/dev/null || rm -rf "$p"
  done
  if [ -d /var/log/containers ]; then
    find /var/log/containers -maxdepth 1 -type l -lname "$rn/*" -delete 2>/dev/null || true
  fi
  rm -f /run/netns/cni-* 2>/dev/null || true
  # sysctls as they were.
  local line k v
  if [ -f "$before/state" ]; then
    while read -r line; do
      case $line in sysctl\ *) ;; *) continue ;; esac
      k=${line#sysctl }; v=${k#*=}; k=${k%%=*}
      [ "$v" = absent ] || [ "$(sysctl -n "$k" 2>/dev/null)" = "$v" ] || sysctl -qw "$k=$v" || true
    done <"$before/state"
  fi
  rm -rf "$rn"
  cmd_check
  log "node is down; the machine is as before"
}

cmd_status() {
  [ -s "$rn/kubelet.pid" ] && kill -0 "$(cat "$rn/kubelet.pid")" 2>/dev/null && echo "up: node $node" && return
  echo down
  return 1
}

case "${1:-}" in
  up) shift; cmd_up "$@" ;;
  down) cmd_down ;;
  check) cmd_check ;;
  status) cmd_status ;;
  restart) shift; cmd_restart "$@" ;;
  *) echo "usage: $0 up CLUSTER_DIR|down|check|status|restart kubelet|containerd [SECONDS]" >&2; exit 2 ;;
esac
