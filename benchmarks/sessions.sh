#!/usr/bin/env bash
# Whole sessions, side by side: W2 (session churn) and W4 (memory per idle session), for our server and, when the
# shared peer harness is beside this checkout and built, Quarkus MCP, one after the other in one run.
#
#   benchmarks/sessions.sh churn            # W2: initialize → initialized → tools/call → DELETE, 32 clients
#   benchmarks/sessions.sh memory           # W4: heap per idle session, and per idle session with a GET stream
#   SESSIONS_TOTAL=1000000 benchmarks/sessions.sh churn-heap   # W2's heap check: heap after full GC, start vs end
#   PEERS="mcp-vertx" benchmarks/sessions.sh churn             # our server only
#
# The server runs pinned to SERVER_CPU (default 0) with JVM_OPTS (default -Xmx512m; memory uses -Xmx2g), the
# driver (SessionLoad, in the benchmarks jar) pinned to DRIVER_CPU (default 1). Heap figures are taken with
# `jcmd GC.run` then `jstat -gc` (used = survivors + eden + old, after the full collection), so they count what is
# still reachable. Settings: WARMUP (20 s), DURATION (15 s), CLIENTS (32), COUNT (10000), PEERS_DIR.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/benchmarks/target/mcp-vertx-benchmarks.jar"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/peers}"
QUARKUS_JAR="$PEERS_DIR/quarkus-mcp/target/quarkus-app/quarkus-run.jar"
MODE="${1:-churn}"
SERVER_CPU="${SERVER_CPU:-0}"
DRIVER_CPU="${DRIVER_CPU:-1}"
WARMUP="${WARMUP:-20}"
DURATION="${DURATION:-15}"
CLIENTS="${CLIENTS:-32}"
COUNT="${COUNT:-10000}"
SESSIONS_TOTAL="${SESSIONS_TOTAL:-1000000}"
PORT="${PORT:-18090}"
JAVA="${JAVA:-java}"
URL="http://127.0.0.1:$PORT/mcp"

[[ -f "$JAR" ]] || (cd "$ROOT" && mvn -B -q -DskipTests package -pl benchmarks -am)
PEERS="${PEERS:-mcp-vertx$([[ -f "$QUARKUS_JAR" ]] && echo " quarkus-mcp")}"

SERVER_PID=""
cleanup() { [[ -n "$SERVER_PID" ]] && kill -TERM -- "-$SERVER_PID" 2>/dev/null || true; }
trap cleanup EXIT

start_server() { # peer jvm-opts
  local peer=$1 opts=$2
  case $peer in
    mcp-vertx) setsid taskset -c "$SERVER_CPU" "$JAVA" $opts -jar "$JAR" mcp --port "$PORT" >/tmp/sessions-server.log 2>&1 & ;;
    quarkus-mcp) setsid taskset -c "$SERVER_CPU" "$JAVA" $opts -Dquarkus.http.port="$PORT" -jar "$QUARKUS_JAR" \
      >/tmp/sessions-server.log 2>&1 & ;;
    *) echo "unknown peer $peer" >&2; exit 2 ;;
  esac
  SERVER_PID=$!
  for _ in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0; sleep 0.2; done
  echo "$peer did not start" >&2; exit 1
}

stop_server() {
  kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
  sleep 1
}

java_pid() { pgrep -g "$SERVER_PID" java | head -1; }

# Heap in use after a full collection, in KB.
heap_kb() {
  local pid; pid=$(java_pid)
  jcmd "$pid" GC.run >/dev/null
  jstat -gc "$pid" | awk 'NR == 2 { printf "%d\n", $3 + $4 + $6 + $8 }'
}

# The echo tool's argument: ours names it text, the peers message.
arg_of() { [[ $1 == mcp-vertx ]] && echo text || echo message; }
driver() { taskset -c "$DRIVER_CPU" "$JAVA" -Xmx1g -cp "$JAR" io.mcpvertx.benchmarks.SessionLoad "$@" --arg "$ARG"; }

case $MODE in
  churn)
    printf '%-12s %12s %8s\n' peer sessions/s errors
    for peer in $PEERS; do
      start_server "$peer" "${JVM_OPTS:--Xmx512m}"; ARG=$(arg_of "$peer")
      out=$(driver churn --url "$URL" --clients "$CLIENTS" --warmup "$WARMUP" --duration "$DURATION")
      printf '%-12s %12s %8s\n' "$peer" "$(awk '/^SESSIONS_PER_S/ { print $2 }' <<<"$out")" \
        "$(awk '/^ERRORS/ { print $2 }' <<<"$out")"
      stop_server
    done
    ;;
  churn-heap)
    # Heap after a full GC once warm, then again after SESSIONS_TOTAL more sessions: it should not grow.
    printf '%-12s %12s %10s %10s %12s %8s\n' peer sessions before_kb after_kb sessions/s errors
    for peer in $PEERS; do
      start_server "$peer" "${JVM_OPTS:--Xmx512m}"; ARG=$(arg_of "$peer")
      driver churn --url "$URL" --clients "$CLIENTS" --warmup 5 --duration "$WARMUP" >/dev/null
      before=$(heap_kb)
      out=$(driver churn --url "$URL" --clients "$CLIENTS" --warmup 0 --sessions "$SESSIONS_TOTAL")
      after=$(heap_kb)
      printf '%-12s %12s %10s %10s %12s %8s\n' "$peer" "$(awk '/^SESSIONS / { print $2 }' <<<"$out")" \
        "$before" "$after" "$(awk '/^SESSIONS_PER_S/ { print $2 }' <<<"$out")" "$(awk '/^ERRORS/ { print $2 }' <<<"$out")"
      stop_server
    done
    ;;
  memory)
    printf '%-12s %-8s %10s %10s %14s\n' peer streams before_kb after_kb per_session_B
    for peer in $PEERS; do
      for streams in no yes; do
        start_server "$peer" "${JVM_OPTS:--Xmx2g}"; ARG=$(arg_of "$peer")
        driver churn --url "$URL" --clients 8 --warmup 2 --duration 5 >/dev/null   # classes loaded, JIT warm
        before=$(heap_kb)
        fifo=$(mktemp -u); mkfifo "$fifo"
        flag=""; [[ $streams == yes ]] && flag="--streams"
        # exec: $! is then the driver's JVM itself, which the kill below must reach.
        (exec taskset -c "$DRIVER_CPU" "$JAVA" -Xmx1g -cp "$JAR" io.mcpvertx.benchmarks.SessionLoad idle --url "$URL" \
          --count "$COUNT" --clients 32 $flag --arg "$ARG") >"$fifo" 2>/dev/null & dpid=$!
        read -r line <"$fifo"
        [[ $line == READY* ]] || { echo "driver: $line" >&2; exit 1; }
        after=$(heap_kb)
        kill "$dpid"; wait "$dpid" 2>/dev/null || true; rm -f "$fifo"
        printf '%-12s %-8s %10s %10s %14s\n' "$peer" "$streams" "$before" "$after" \
          "$(( (after - before) * 1024 / COUNT ))"
        stop_server
      done
    done
    ;;
  *) echo "usage: sessions.sh churn|churn-heap|memory" >&2; exit 2 ;;
esac
