#!/usr/bin/env bash
# Load benchmark: MCP tools/call (Streamable HTTP, JSON response mode, warm session) against a bare Vert.x HTTP echo
# server, measured alternately in the same run. See docs/benchmarks.md for what it measures and how to read it.
#
#   benchmarks/run.sh                      # 5 rounds of echo, mcp; 10 s warm-up + 15 s measurement per server
#   ROUNDS=3 DURATION=10 benchmarks/run.sh
#   MODES="echo web mcp" benchmarks/run.sh # also the vertx-web echo (Router + BodyHandler, no MCP)
#
# Settings (environment):
#   ROUNDS=5            rounds; each round starts every mode in MODES once, in order, each in a fresh JVM
#   MODES="echo mcp"    servers per round: echo (bare Vert.x), web (vertx-web echo), mcp (tools/call)
#   WARMUP=10           seconds of load before measuring (JIT warm-up), per server start
#   DURATION=15         seconds measured
#   CONNECTIONS=64      wrk connections (keep-alive, HTTP/1.1)
#   THREADS=1           wrk threads
#   SESSIONS=1          MCP sessions the requests are spread over (round-robin); 1 = "a warm session"
#   PIN=1               pin the server JVM to SERVER_CPUS and wrk to WRK_CPUS with taskset (0: no pinning)
#   SERVER_CPUS=1 WRK_CPUS=0
#   INSTANCES=          HTTP verticle instances (default: the processors the server JVM sees, 1 when pinned)
#   JVM_OPTS="-Xms1g -Xmx1g -XX:+UseParallelGC"   the same for every server
#   PORT=18431
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
DURATION="${DURATION:-15}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-1}"
SESSIONS="${SESSIONS:-1}"
PIN="${PIN:-1}"
SERVER_CPUS="${SERVER_CPUS:-1}"
WRK_CPUS="${WRK_CPUS:-0}"
INSTANCES="${INSTANCES:-}"
JVM_OPTS="${JVM_OPTS:--Xms1g -Xmx1g -XX:+UseParallelGC}"
PORT="${PORT:-18431}"
PROTOCOL="${PROTOCOL:-2025-11-25}"
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

if [[ ! -f "$JAR" || -n "$(find "$ROOT/benchmarks/src" "$ROOT/runtime/src/main" "$ROOT/verticles/src/main" \
      -newer "$JAR" -type f 2>/dev/null | head -1)" ]]; then
  echo "Building $JAR ..." >&2
  (cd "$ROOT" && mvn -q -DskipTests package -pl benchmarks -am)
fi

mkdir -p "$OUT"
CSV="$OUT/results.csv"
echo "round,mode,rps,p50_us,p90_us,p99_us,max_us,requests,non2xx,socket_errors,bad,server_cpu_s,cpu_us_per_req" > "$CSV"
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

start_server() { # mode log
  if port_busy; then
    echo "run.sh: something already listens on port $PORT; set PORT" >&2
    exit 1
  fi
  local args=("$1" --port "$PORT")
  [[ -n "$INSTANCES" ]] && args+=(--instances "$INSTANCES")
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

# CPU time (user + system, all threads) the server JVM used so far, in clock ticks.
server_ticks() {
  awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat"
}

run_wrk() { # seconds sessions-file log
  "${WRK_PIN[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$1"s --latency -s "$LUA" "$URL" -- "$2" "$PROTOCOL" >"$3" 2>&1
}

echo "Results in $OUT" >&2
echo "nproc=$(nproc) pin=$PIN server_cpus=$SERVER_CPUS wrk_cpus=$WRK_CPUS rounds=$ROUNDS modes='$MODES'" \
  "warmup=${WARMUP}s duration=${DURATION}s connections=$CONNECTIONS threads=$THREADS sessions=$SESSIONS" \
  "instances=${INSTANCES:-auto} jvm_opts='$JVM_OPTS'" | tee "$OUT/settings.txt" >&2
java -version 2>&1 | head -1 >> "$OUT/settings.txt"

for round in $(seq 1 "$ROUNDS"); do
  for mode in $MODES; do
    tag="r$round-$mode"
    start_server "$mode" "$OUT/$tag-server.log"
    sessions_file="$OUT/$tag-sessions.txt"
    if [[ "$mode" == mcp ]]; then
      init_sessions "$sessions_file"
    else
      echo "not-a-session" > "$sessions_file"
      reply="$(curl -s "${HDR[@]}" "$URL" -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, benchmark"}}}')"
      [[ "$reply" == *"hello, benchmark"* ]] || { echo "run.sh: the $mode server did not echo: $reply" >&2; exit 1; }
    fi
    run_wrk "$WARMUP" "$sessions_file" "$OUT/$tag-warmup.txt"
    ticks_before="$(server_ticks)"
    run_wrk "$DURATION" "$sessions_file" "$OUT/$tag-wrk.txt"
    ticks_after="$(server_ticks)"
    stop_server
    line="$(grep '^BENCH ' "$OUT/$tag-wrk.txt" || true)"
    [[ -n "$line" ]] || { echo "run.sh: no result from wrk; see $OUT/$tag-wrk.txt" >&2; cat "$OUT/$tag-wrk.txt" >&2; exit 1; }
    val() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$line"; }
    cpu_s="$(awk "BEGIN { print ($ticks_after - $ticks_before) / $CLK_TCK }")"
    cpu_per_req="$(awk "BEGIN { printf \"%.2f\", $cpu_s * 1e6 / $(val requests) }")"
    echo "$round,$mode,$(val rps),$(val p50_us),$(val p90_us),$(val p99_us),$(val max_us),$(val requests),$(val non2xx),$(val socket_errors),$(val bad),$cpu_s,$cpu_per_req" >> "$CSV"
    printf '  round %d %-4s %10s req/s  p50 %6.2f ms  p99 %7.2f ms  server CPU %5.1f s (%s us/req)  bad %s\n' \
      "$round" "$mode" "$(val rps)" "$(awk "BEGIN { print $(val p50_us) / 1000 }")" \
      "$(awk "BEGIN { print $(val p99_us) / 1000 }")" "$cpu_s" "$cpu_per_req" "$(val bad)" >&2
    if [[ "$(val bad)" != 0 || "$(val non2xx)" != 0 ]]; then
      echo "run.sh: $mode answered some requests badly; see $OUT/$tag-wrk.txt" >&2
      grep BENCH-BAD-SAMPLE "$OUT/$tag-wrk.txt" >&2 || true
      exit 1
    fi
  done
done

# Summary: per mode the median and the range over rounds. Ratios to echo are taken per round (each mode against the
# echo run of the same round, which ran just before it on the same machine), then summarised the same way:
#   rps ratio  = mode req/s / echo req/s                          (the headline number)
#   CPU ratio  = echo server-CPU-us/req / mode server-CPU-us/req  (throughput ratio at equal server CPU; it is less
#                sensitive to other processes stealing the server's core)
awk -F, -v modes="$MODES" '
  NR == 1 { next }
  { rps[$2, $1] = $3; p50[$2, $1] = $4; p99[$2, $1] = $6; cpu[$2, $1] = $13; rounds[$1] = 1 }
  function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
  function median(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function stat(arr, m, scale, fmt,   n, r, v) {
    n = 0; for (r in rounds) if ((m, r) in arr) v[++n] = arr[m, r] / scale
    sort(v, n)
    return sprintf(fmt " [" fmt "-" fmt "]", median(v, n), v[1], v[n])
  }
  function ratio(m, inverse,   n, r, v) {
    if (m == "echo") return "-"
    n = 0
    for (r in rounds) if ((m, r) in rps && ("echo", r) in rps) {
      if (inverse) { if (cpu[m, r] > 0) v[++n] = cpu["echo", r] / cpu[m, r] } else v[++n] = rps[m, r] / rps["echo", r]
    }
    if (n == 0) return "-"
    sort(v, n)
    return sprintf("%.2f [%.2f-%.2f]", median(v, n), v[1], v[n])
  }
  END {
    nm = split(modes, ms, " ")
    printf "\nmedian [min-max] over %d round(s)\n", length(rounds)
    printf "%-5s %-22s %-20s %-23s %-20s %-18s %s\n", "mode", "req/s", "p50 ms", "p99 ms", "server CPU us/req", "rps ratio to echo", "CPU ratio to echo"
    for (k = 1; k <= nm; k++) {
      m = ms[k]
      printf "%-5s %-22s %-20s %-23s %-20s %-18s %s\n", m, stat(rps, m, 1, "%.0f"), stat(p50, m, 1000, "%.2f"),
        stat(p99, m, 1000, "%.1f"), stat(cpu, m, 1, "%.1f"), ratio(m, 0), ratio(m, 1)
    }
  }' "$CSV" | tee "$OUT/summary.txt"
echo "Per-run results: $CSV" >&2
