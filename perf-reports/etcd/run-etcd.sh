#!/usr/bin/env bash
# Starts or stops a single-node etcd on 127.0.0.1 with a throw-away data directory, for the
# harness's --engine etcd. Nothing touches the network unless --install is given, which installs
# Debian's etcd-server package with apt-get when etcd is missing.
#
#   perf-reports/etcd/run-etcd.sh [--install] [--port 2379] start
#   perf-reports/etcd/run-etcd.sh stop
#   perf-reports/etcd/run-etcd.sh status
set -euo pipefail

install=false
port=2379
state_dir="${TMPDIR:-/tmp}/ringwatch-etcd"
action=""
while [ $# -gt 0 ]; do
  case "$1" in
    --install) install=true ;;
    --port) port="$2"; shift ;;
    start|stop|status) action="$1" ;;
    *) echo "usage: $0 [--install] [--port N] start|stop|status" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$action" ] || { echo "usage: $0 [--install] [--port N] start|stop|status" >&2; exit 2; }

pid_file="$state_dir/etcd.pid"

healthy() {
  # etcd answers {"health":"true"} on its client port once it has a leader.
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf 'GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  grep -q '"health":"true"' <&3
  local found=$?
  exec 3<&-
  return $found
}

case "$action" in
  start)
    if ! command -v etcd >/dev/null; then
      if $install; then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q etcd-server
      else
        echo "etcd is not installed; rerun with --install to apt-get install etcd-server" >&2
        exit 1
      fi
    fi
    # Debian enables an etcd service on install; this script runs its own instance instead.
    if command -v systemctl >/dev/null && systemctl is-active --quiet etcd 2>/dev/null; then
      systemctl stop etcd || true
    fi
    if [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
      echo "etcd already running (pid $(cat "$pid_file"))"; exit 0
    fi
    mkdir -p "$state_dir"
    data_dir="$(mktemp -d "$state_dir/data.XXXXXX")"
    peer_port=$((port + 1))
    nohup etcd --name ringwatch-perf --data-dir "$data_dir" \
      --listen-client-urls "http://127.0.0.1:$port" --advertise-client-urls "http://127.0.0.1:$port" \
      --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
      --initial-cluster "ringwatch-perf=http://127.0.0.1:$peer_port" \
      > "$state_dir/etcd.log" 2>&1 &
    echo $! > "$pid_file"
    echo "$data_dir" > "$state_dir/data-dir"
    for _ in $(seq 1 100); do
      if healthy; then
        echo "etcd $(etcd --version | head -1 | awk '{print $3}') up on http://127.0.0.1:$port (pid $(cat "$pid_file"), data $data_dir, log $state_dir/etcd.log)"
        exit 0
      fi
      sleep 0.2
    done
    echo "etcd did not become healthy; see $state_dir/etcd.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$pid_file" ]; then
      pid="$(cat "$pid_file")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$pid_file"
    fi
    if [ -f "$state_dir/data-dir" ]; then
      rm -rf "$(cat "$state_dir/data-dir")" "$state_dir/data-dir"
    fi
    echo "etcd stopped"
    ;;
  status)
    if healthy; then echo "etcd healthy on 127.0.0.1:$port"; else echo "etcd not answering on 127.0.0.1:$port"; exit 1; fi
    ;;
esac
