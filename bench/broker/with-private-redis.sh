#!/usr/bin/env bash
# Run a sockbench server with a private Redis broker:
#
#   bench/broker/with-private-redis.sh SERVER-COMMAND [ARGS...]
#
# starts Debian's redis-server on a free loopback port (127.0.0.1 only, no
# persistence, its files in a temporary directory), runs SERVER-COMMAND ARGS
# --broker redis://127.0.0.1:PORT/0, forwards SIGTERM/SIGINT to the server,
# and once the server has exited stops that redis-server and exits with the
# server's status. stdout stays the server's (its READY line); redis-server
# logs to a file that is shown on stderr only if it fails to start.
#
# Used by `make serve-* WORKERS=N` when no BROKER= is given (bench/broker/make.mk).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 SERVER-COMMAND [ARGS...]" >&2
  exit 2
fi
command -v redis-server >/dev/null && command -v redis-cli >/dev/null || {
  echo "with-private-redis.sh: redis-server/redis-cli not found: run 'make setup-redis' (Debian package redis-server)" >&2
  exit 1
}

workdir=$(mktemp -d "${TMPDIR:-/tmp}/sockbench-redis.XXXXXX")
redis_pid=""
server_pid=""

stop_redis() {
  if [ -n "$redis_pid" ] && kill -0 "$redis_pid" 2>/dev/null; then
    kill -TERM "$redis_pid" 2>/dev/null || true
    # redis-server exits within milliseconds without persistence; bounded wait.
    for _ in $(seq 50); do kill -0 "$redis_pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$redis_pid" 2>/dev/null || true
  fi
  rm -rf "$workdir"
}
trap stop_redis EXIT

# A free port: pick one at random in the dynamic range and start redis-server
# on it; if the bind fails (port taken) redis-server exits and we try another.
# "Ours" is checked by the process id redis reports, so another Redis already
# on that port is never mistaken for the private one.
port=""
for _ in $(seq 20); do
  candidate=$((20000 + RANDOM % 40000))
  redis-server --bind 127.0.0.1 --port "$candidate" --save '' --appendonly no \
    --daemonize no --dir "$workdir" --logfile "$workdir/redis.log" >/dev/null 2>&1 </dev/null &
  redis_pid=$!
  for _ in $(seq 100); do  # up to ~5 s
    kill -0 "$redis_pid" 2>/dev/null || break
    if redis-cli -p "$candidate" info server 2>/dev/null | tr -d '\r' | grep -qx "process_id:$redis_pid"; then
      port=$candidate
      break 2
    fi
    sleep 0.05
  done
  kill -KILL "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  redis_pid=""
done
if [ -z "$port" ]; then
  echo "with-private-redis.sh: could not start redis-server on a free loopback port (last log: $(tail -n 1 "$workdir/redis.log" 2>/dev/null))" >&2
  exit 1
fi
echo "with-private-redis.sh: private redis-server pid $redis_pid on 127.0.0.1:$port" >&2

# Background child: a non-interactive shell ignores SIGINT for it, so both
# signals are forwarded as SIGTERM (the contract's stop signal).
"$@" --broker "redis://127.0.0.1:$port/0" &
server_pid=$!
trap 'kill -TERM "$server_pid" 2>/dev/null || true' TERM INT
status=0
while :; do
  wait "$server_pid" && status=0 || status=$?
  kill -0 "$server_pid" 2>/dev/null || break  # wait returned because of a trapped signal
done
exit "$status"
