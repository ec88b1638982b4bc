#!/usr/bin/env bash
# Runs the conformance suite (docs/contract/conformance) against several
# servers at once, then prints each run's output whole, in the order given.
#
#   run-conformance-set.sh PYTHON --run LABEL SERVER_CMD [EXTRA ...] [--run ...]
#
#   PYTHON      the interpreter that runs the suite: a venv with pytest. The
#               suite is only a client, so it need not be the server's own
#               interpreter (under PyPy it added start-up time and once crashed
#               inside pytest's import hook, failing a server that was fine).
#   LABEL       the line printed above that run's output ("--- LABEL").
#   SERVER_CMD  SOCKBENCH_SERVER_CMD for that run (serverproc.py adds --port 0).
#   EXTRA       NAME=VALUE words are that run's environment (PYTHONPATH for a
#               deviations plugin, SOCKBENCH_JS_RUNTIME); any other word is a
#               pytest argument for that run (-p plugin, -k expression).
#
# The caller's environment and working directory pass through to every run.
#
# Why concurrently: a run spends most of its ~22 s waiting (session expiry,
# heartbeats and the stop-signal tests sleep ~14 s of it), so runs overlap
# almost for free, and each run has its own server on its own free port.
# Every run happens even if one fails; the exit status is 1 if any did.
set -u
usage() { echo "usage: $0 PYTHON --run LABEL SERVER_CMD [NAME=VALUE|PYTEST_ARG ...] [--run ...]" >&2; exit 2; }
[ $# -ge 4 ] && [ "$2" = --run ] || usage
python=$1; shift
suite="$(cd "$(dirname "$0")" && pwd)/conformance"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# Check every --run before starting any: a typo in the last one must not leave
# the first ones running with nobody waiting for them.
check=("$@")
i=0
while [ $i -lt ${#check[@]} ]; do
  [ "${check[$i]}" = --run ] && [ $((i + 2)) -lt ${#check[@]} ] || usage
  [ "${check[$((i + 1))]}" != --run ] && [ "${check[$((i + 2))]}" != --run ] || usage
  i=$((i + 3))
  while [ $i -lt ${#check[@]} ] && [ "${check[$i]}" != --run ]; do i=$((i + 1)); done
done

labels=(); pids=()
while [ $# -gt 0 ]; do
  [ "$1" = --run ] && [ $# -ge 3 ] || usage
  label=$2; server_cmd=$3; shift 3
  envs=(); args=()
  while [ $# -gt 0 ] && [ "$1" != --run ]; do
    if [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; then envs+=("$1"); else args+=("$1"); fi
    shift
  done
  log="$logs/${#labels[@]}.log"
  env ${envs[@]+"${envs[@]}"} SOCKBENCH_SERVER_CMD="$server_cmd" \
    "$python" -m pytest -q -p no:cacheprovider ${args[@]+"${args[@]}"} "$suite" >"$log" 2>&1 &
  labels+=("$label"); pids+=($!)
done

status=0; failed=""
for j in "${!pids[@]}"; do
  wait "${pids[$j]}" || { status=1; failed+="  ${labels[$j]}"$'\n'; }
  echo "--- ${labels[$j]}"
  cat "$logs/$j.log"
done
[ $status -eq 0 ] || printf 'conformance failed for:\n%s' "$failed" >&2
exit $status
