#!/usr/bin/env bash
# Load benchmark: MCP tools/call (Streamable HTTP, JSON response mode, warm session) against a bare Vert.x HTTP echo
# server, measured alternately in the same run. See docs/benchmarks.md for what it measures and how to read it.
#
#   benchmarks/run.sh                      # 5 rounds of echo, mcp; warm-up (until the JIT is quiet), 15 s measured
#   ROUNDS=3 DURATION=10 benchmarks/run.sh
#   MODES="echo web mcp mcp@1" benchmarks/run.sh   # with the diagnostics (vertx-web echo; MCP on one event loop)
#   PROFILE=1 ROUNDS=1 DURATION=30 benchmarks/run.sh   # JFR profile of each measurement, summarised by JfrTop
#
# Each server runs in its own JVM; wrk's responses are checked during the warm-up (status and echoed text), and a
# measurement with any non-2xx response or socket error fails the run. Results: results.csv, summary.txt (see
# summarize.sh for the ratios) and the raw logs, in OUT.
#
# Settings (environment):
#   ROUNDS=5            rounds; each round starts every mode in MODES once, in order, each in a fresh JVM
#   MODES="echo mcp"    servers per round: echo (bare Vert.x), web (vertx-web echo), mcp (tools/call on a session),
#                       stateless (the same tools/call, 2026-07-28: no session, _meta and routing headers); a mode may
#                       carry its own event-loop count, e.g. "echo mcp mcp@1" (mcp@1: one event loop, so the
#                       session verticle shares the HTTP verticle's thread)
#   WARMUP=10           seconds of load before measuring, at least, per server start; then more load in WARMUP_STEP
#                       chunks until the JIT compiler threads used under JIT_QUIET % of a core in the last chunk
#                       (the MCP path has much more code to compile than the echo, and on one core a busy C2 thread
#                       takes its time from the event loop), up to WARMUP_MAX seconds in all
#   WARMUP_STEP=5 WARMUP_MAX=90 JIT_QUIET=2
#   DURATION=15         seconds measured
#   CONNECTIONS=64      wrk connections (keep-alive, HTTP/1.1)
#   THREADS=1           wrk threads
#   SESSIONS=1          MCP sessions the requests are spread over (round-robin); 1 = "a warm session"
#   PIN=1               pin the server JVM to SERVER_CPUS and wrk to WRK_CPUS with taskset (0: no pinning)
#   SERVER_CPUS=1 WRK_CPUS=0
#   INSTANCES=          HTTP verticle instances (default: the processors the server JVM sees, 1 when pinned)
#   EVENT_LOOPS=        Vert.x event-loop threads (default: Vert.x's, twice the processors the JVM sees)
#   JVM_OPTS="-Xms1g -Xmx1g -XX:+UseParallelGC"   the same for every server
#   QUIET_WAIT=0        before starting each server, wait up to this many seconds for the machine to be quiet
#                       (other processes under QUIET_BUSY % of one CPU over 3 s); 0: do not wait. The summary
#                       always adds a table of the rounds that stayed quiet (see summarize.sh, QUIET_MAX)
#   QUIET_BUSY=10
#   NICE=0              niceness of the server and wrk (e.g. -10, as root, to take CPU from other work on a shared
#                       machine; 0 leaves the scheduler alone)
#   PORT=18431
#   PROFILE=0           1: record JFR (settings=profile, 2 ms sampling) from before the warm-up, keep the measured
#                       window in <tag>.jfr and summarise it with JfrTop into <tag>-profile.txt. Recording costs
#                       some throughput: do not mix profiled and unprofiled numbers.
#   OUT=benchmarks/target/bench-<timestamp>   logs and results.csv
#
# Needs: java 17+, wrk (apt-get install -y wrk), curl, taskset (util-linux). Builds the jar if it is missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/benchmarks/target/mcp-vertx-benchmarks.jar"
LUA="$ROOT/benchmarks/wrk/tools-call.lua"

ROUNDS="${ROUNDS:-5}"
MODES="${MODES:-echo mcp}"
WARMUP="${WARMUP:-10}"
WARMUP_STEP="${WARMUP_STEP:-5}"
WARMUP_MAX="${WARMUP_MAX:-90}"
JIT_QUIET="${JIT_QUIET:-2}"
DURATION="${DURATION:-15}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-1}"
SESSIONS="${SESSIONS:-1}"
PIN="${PIN:-1}"
SERVER_CPUS="${SERVER_CPUS:-1}"
WRK_CPUS="${WRK_CPUS:-0}"
INSTANCES="${INSTANCES:-}"
EVENT_LOOPS="${EVENT_LOOPS:-}"
JVM_OPTS="${JVM_OPTS:--Xms1g -Xmx1g -XX:+UseParallelGC}"
PORT="${PORT:-18431}"
PROTOCOL="${PROTOCOL:-2025-11-25}"
PROFILE="${PROFILE:-0}"
NICE="${NICE:-0}"
QUIET_WAIT="${QUIET_WAIT:-0}"
QUIET_BUSY="${QUIET_BUSY:-10}"
OUT="${OUT:-$ROOT/benchmarks/target/bench-$(date +%Y%m%d-%H%M%S)}"
URL="http://127.0.0.1:$PORT/mcp"

for tool in java wrk curl; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is required (wrk: apt-get install -y wrk)" >&2; exit 1; }
done
SERVER_PIN=()
WRK_PIN=()
if [[ "$PIN" == 1 ]]; then
  command -v taskset >/dev/null || { echo "run.sh: taskset is required for PIN=1" >&2; exit 1; }
  SERVER_PIN=(taskset -c "$SERVER_CPUS")
  WRK_PIN=(taskset -c "$WRK_CPUS")
fi
if [[ "$NICE" != 0 ]]; then
  SERVER_PIN=(nice -n "$NICE" "${SERVER_PIN[@]}")
  WRK_PIN=(nice -n "$NICE" "${WRK_PIN[@]}")
fi

if [[ ! -f "$JAR" || -n "$(find "$ROOT/benchmarks/src" "$ROOT/runtime/src/main" "$ROOT/verticles/src/main" \
      -newer "$JAR" -type f 2>/dev/null | head -1)" ]]; then
  echo "Building $JAR ..." >&2
  (cd "$ROOT" && mvn -q -DskipTests package -pl benchmarks -am)
fi

mkdir -p "$OUT"
CSV="$OUT/results.csv"
echo "round,mode,rps,p50_us,p90_us,p99_us,max_us,requests,non2xx,socket_errors,bad,server_cpu_s,cpu_us_per_req,user_s,sys_s,ctxsw_per_req,wrk_cpu_s,warmup_s,jit_cpu_s,others_cpu_s" > "$CSV"
CLK_TCK="$(getconf CLK_TCK)"

SERVER_PID=""
stop_server() {
  if [[ -n "$SERVER_PID" ]]; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}
trap stop_server EXIT

port_busy() {
  curl -s -o /dev/null --max-time 1 "$URL"
}

# Waits up to QUIET_WAIT seconds for the machine to be quiet (nothing of ours runs at this point).
wait_for_quiet() {
  local waited=0 before after
  (( QUIET_WAIT > 0 )) || return 0
  while (( waited < QUIET_WAIT )); do
    before="$(machine_busy_ticks)"
    sleep 3
    after="$(machine_busy_ticks)"
    waited=$((waited + 3))
    if (( (after - before) * 100 < QUIET_BUSY * CLK_TCK * 3 )); then
      return 0
    fi
  done
  echo "  (the machine was still busy after ${QUIET_WAIT}s; going on)" >&2
}

start_server() { # mode[@event-loops] log
  if port_busy; then
    echo "run.sh: something already listens on port $PORT; set PORT" >&2
    exit 1
  fi
  local args=("${1%@*}" --port "$PORT") loops="$EVENT_LOOPS"
  [[ "$1" == *@* ]] && loops="${1#*@}"
  [[ -n "$INSTANCES" ]] && args+=(--instances "$INSTANCES")
  [[ -n "$loops" ]] && args+=(--event-loops "$loops")
  # shellcheck disable=SC2086
  "${SERVER_PIN[@]}" java $JVM_OPTS -jar "$JAR" "${args[@]}" >"$2" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 300); do
    if port_busy; then
      return 0
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "run.sh: the $1 server died; see $2" >&2
      cat "$2" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "run.sh: the $1 server did not start in 30 s; see $2" >&2
  exit 1
}

HDR=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")

# Initializes SESSIONS sessions (initialize + notifications/initialized), checks one tools/call in each, and
# writes their ids to $1.
init_sessions() {
  : > "$1"
  local i sid reply
  for i in $(seq 1 "$SESSIONS"); do
    sid="$(curl -s -D - -o /dev/null "${HDR[@]}" "$URL" -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"'"$PROTOCOL"'","capabilities":{},"clientInfo":{"name":"run.sh","version":"1"}}}' \
      | tr -d '\r' | awk 'tolower($1) == "mcp-session-id:" { print $2 }')"
    [[ -n "$sid" ]] || { echo "run.sh: initialize returned no Mcp-Session-Id" >&2; exit 1; }
    curl -s -f -o /dev/null "${HDR[@]}" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: $PROTOCOL" "$URL" \
      -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    reply="$(curl -s "${HDR[@]}" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: $PROTOCOL" "$URL" \
      -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"}}}')"
    [[ "$reply" == '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello, benchmark"}]}}' ]] \
      || { echo "run.sh: unexpected tools/call reply: $reply" >&2; exit 1; }
    echo "$sid" >> "$1"
  done
}

# What the server JVM used so far: "user-ticks system-ticks context-switches" (CPU time of all its threads, in
# clock ticks; context switches, voluntary and not, summed over its live threads).
server_usage() {
  local ctxsw
  ctxsw="$(cat /proc/"$SERVER_PID"/task/*/status 2>/dev/null \
    | awk '/^(voluntary|nonvoluntary)_ctxt_switches/ { n += $2 } END { print n + 0 }')"
  echo "$(awk '{ print $14, $15 }' "/proc/$SERVER_PID/stat") $ctxsw"
}

# Busy clock ticks (everything but idle and iowait) of all CPUs so far, machine-wide: what the server and wrk did
# not use of it was used by other processes.
machine_busy_ticks() {
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# CPU time of the server's JIT compiler threads so far, in clock ticks.
jit_ticks() {
  local task total=0
  for task in /proc/"$SERVER_PID"/task/*; do
    if [[ "$(cat "$task/comm" 2>/dev/null)" == C[12]\ Compiler* ]]; then
      total=$((total + $(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null || echo 0)))
    fi
  done
  echo "$total"
}

# Loads the server for WARMUP seconds, then in WARMUP_STEP chunks until the JIT is quiet; prints the seconds spent.
warm_up() { # sessions-file log-prefix
  local spent=0 before after
  run_wrk "$WARMUP" "$1" "$2-warmup.txt"
  spent=$WARMUP
  while (( spent < WARMUP_MAX )); do
    before="$(jit_ticks)"
    run_wrk "$WARMUP_STEP" "$1" "$2-warmup.txt"
    after="$(jit_ticks)"
    spent=$((spent + WARMUP_STEP))
    if awk -v d=$((after - before)) -v t="$CLK_TCK" -v s="$WARMUP_STEP" -v q="$JIT_QUIET" \
        'BEGIN { exit !(100 * d / t / s < q) }'; then
      break
    fi
  done
  echo "$spent"
}

run_wrk() { # seconds sessions-file log [check|nocheck]
  "${WRK_PIN[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$1"s --latency -s "$LUA" "$URL" -- "$2" "$PROTOCOL" \
    "${4:-check}" >"$3" 2>&1
  if grep -q '^BENCH-BAD-SAMPLE' "$3" || ! grep -q ' bad=0$' "$3"; then
    echo "run.sh: bad responses; see $3" >&2
    grep '^BENCH' "$3" >&2 || cat "$3" >&2
    exit 1
  fi
}

echo "Results in $OUT" >&2
echo "nproc=$(nproc) pin=$PIN server_cpus=$SERVER_CPUS wrk_cpus=$WRK_CPUS rounds=$ROUNDS modes='$MODES'" \
  "warmup=${WARMUP}s duration=${DURATION}s connections=$CONNECTIONS threads=$THREADS sessions=$SESSIONS" \
  "instances=${INSTANCES:-auto} event_loops=${EVENT_LOOPS:-auto} nice=$NICE jvm_opts='$JVM_OPTS'" | tee "$OUT/settings.txt" >&2
java -version 2>&1 | head -1 >> "$OUT/settings.txt"

for round in $(seq 1 "$ROUNDS"); do
  for mode in $MODES; do
    tag="r$round-$mode"
    wait_for_quiet
    start_server "$mode" "$OUT/$tag-server.log"
    sessions_file="$OUT/$tag-sessions.txt"
    if [[ "${mode%@*}" == mcp ]]; then
      init_sessions "$sessions_file"
    elif [[ "${mode%@*}" == stateless ]]; then
      echo "stateless" > "$sessions_file"
    else
      echo "not-a-session" > "$sessions_file"
      reply="$(curl -s "${HDR[@]}" "$URL" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"}}}')"
      [[ "$reply" == *"hello, benchmark"* ]] || { echo "run.sh: the $mode server did not echo: $reply" >&2; exit 1; }
    fi
    if [[ "$PROFILE" == 1 ]]; then
      # Started before the warm-up: starting a recording on warm code makes the JIT deoptimise and recompile.
      jcmd "$SERVER_PID" JFR.start name=bench settings=profile 'jdk.ExecutionSample#period=2ms' >/dev/null
    fi
    warmed="$(warm_up "$sessions_file" "$OUT/$tag")"
    read -r user_before sys_before ctxsw_before < <(server_usage)
    busy_before="$(machine_busy_ticks)"
    jit_before="$(jit_ticks)"
    measure_from="$(date +%s%3N)"
    TIMEFORMAT='%U %S'
    { time run_wrk "$DURATION" "$sessions_file" "$OUT/$tag-wrk.txt" nocheck; } 2> "$OUT/$tag-wrk-cpu.txt"
    read -r user_after sys_after ctxsw_after < <(server_usage)
    busy_after="$(machine_busy_ticks)"
    jit_after="$(jit_ticks)"
    measure_to="$(date +%s%3N)"
    if [[ "$PROFILE" == 1 ]]; then
      # Only the measured window.
      jcmd "$SERVER_PID" JFR.dump name=bench begin=-$((DURATION + 5))s filename="$OUT/$tag.jfr" >/dev/null
    fi
    stop_server
    line="$(grep '^BENCH ' "$OUT/$tag-wrk.txt" || true)"
    [[ -n "$line" ]] || { echo "run.sh: no result from wrk; see $OUT/$tag-wrk.txt" >&2; cat "$OUT/$tag-wrk.txt" >&2; exit 1; }
    val() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$line"; }
    user_s="$(awk "BEGIN { print ($user_after - $user_before) / $CLK_TCK }")"
    sys_s="$(awk "BEGIN { print ($sys_after - $sys_before) / $CLK_TCK }")"
    cpu_s="$(awk "BEGIN { print $user_s + $sys_s }")"
    cpu_per_req="$(awk "BEGIN { printf \"%.2f\", $cpu_s * 1e6 / $(val requests) }")"
    jit_s="$(awk "BEGIN { print ($jit_after - $jit_before) / $CLK_TCK }")"
    wrk_cpu_s="$(awk '{ print $1 + $2 }' "$OUT/$tag-wrk-cpu.txt")"
    # CPU seconds used by other processes meanwhile, over the whole machine (nproc cores).
    others_s="$(awk "BEGIN { v = ($busy_after - $busy_before) / $CLK_TCK - $cpu_s - $wrk_cpu_s; printf \"%.1f\", v < 0 ? 0 : v }")"
    ctxsw_per_req="$(awk "BEGIN { printf \"%.2f\", ($ctxsw_after - $ctxsw_before) / $(val requests) }")"
    echo "$round,$mode,$(val rps),$(val p50_us),$(val p90_us),$(val p99_us),$(val max_us),$(val requests),$(val non2xx),$(val socket_errors),$(val bad),$cpu_s,$cpu_per_req,$user_s,$sys_s,$ctxsw_per_req,$wrk_cpu_s,$warmed,$jit_s,$others_s" >> "$CSV"
    printf '  round %d %-6s %9s req/s  p50 %6.2f ms  p99 %7.2f ms  server CPU %5.1f s = %s us/req (user %s s, sys %s s), %s ctx switches/req; wrk CPU %s s; warm-up %s s, JIT CPU while measuring %s s; other processes used %s CPU-s\n' \
      "$round" "$mode" "$(val rps)" "$(awk "BEGIN { print $(val p50_us) / 1000 }")" \
      "$(awk "BEGIN { print $(val p99_us) / 1000 }")" "$cpu_s" "$cpu_per_req" "$user_s" "$sys_s" "$ctxsw_per_req" "$wrk_cpu_s" "$warmed" "$jit_s" "$others_s" >&2
    if [[ "$PROFILE" == 1 ]]; then
      java -cp "$JAR" io.mcpvertx.benchmarks.JfrTop "$OUT/$tag.jfr" "$(val requests)" 30 "$measure_from" "$measure_to" \
        > "$OUT/$tag-profile.txt"
      echo "    profile: $OUT/$tag-profile.txt" >&2
    fi
    if [[ "$(val non2xx)" != 0 || "$(val socket_errors)" != 0 ]]; then
      echo "run.sh: $mode answered some requests with errors; see $OUT/$tag-wrk.txt" >&2
      exit 1
    fi
  done
done

"$ROOT/benchmarks/summarize.sh" "$CSV" | tee "$OUT/summary.txt"
echo "Per-run results: $CSV" >&2
