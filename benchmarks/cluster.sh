#!/usr/bin/env bash
# Cluster benchmark: tools/call throughput through nginx with 1 and with 3 clustered instances of the examples
# launcher (Redis stores, embedded Hazelcast), measured alternately in the same run; then the latency of a
# request through an instance that does not run the session (the non-owner hop). See docs/benchmarks.md.
#
#   benchmarks/cluster.sh                         # 3 rounds, 15 s measured after 15 s of warm-up per setup
#   ROUNDS=1 DURATION=10 WARMUP=10 benchmarks/cluster.sh
#
# Everything runs on this machine (2 cores here): three JVMs, Redis, nginx and wrk share them, so 3 instances
# cannot be faster than 1; the ratio is the cost of spreading sessions over instances (2 of 3 requests take the
# non-owner hop) plus three JVMs' overhead on the same cores.
#
# Settings (environment): ROUNDS=3 DURATION=15 WARMUP=15 CONNECTIONS=32 SESSIONS=12 HOP_REQUESTS=20000
# JVM_OPTS="-Xms512m -Xmx512m -XX:+UseParallelGC" BASE_PORT=19100 OUT=benchmarks/target/cluster-<timestamp>
# Needs: java 17+, wrk, nginx (apt-get install -y wrk nginx-light), curl; redis-server on PATH or the
# embedded-redis jar in ~/.m2 (present after the tests ran). Builds the jars if missing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="$ROOT/examples/target/mcp-vertx-examples.jar"
BENCH_JAR="$ROOT/benchmarks/target/mcp-vertx-benchmarks.jar"
LUA="$ROOT/benchmarks/wrk/tools-call.lua"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-15}"
CONNECTIONS="${CONNECTIONS:-32}"
SESSIONS="${SESSIONS:-12}"
HOP_REQUESTS="${HOP_REQUESTS:-20000}"
JVM_OPTS="${JVM_OPTS:--Xms512m -Xmx512m -XX:+UseParallelGC}"
BASE_PORT="${BASE_PORT:-19100}"
OUT="${OUT:-$ROOT/benchmarks/target/cluster-$(date +%Y%m%d-%H%M%S)}"
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

for tool in java wrk curl; do
  command -v "$tool" >/dev/null || { echo "cluster.sh: $tool is required" >&2; exit 1; }
done
[[ -x "$NGINX" ]] || { echo "cluster.sh: nginx is required (apt-get install -y nginx-light)" >&2; exit 1; }
if [[ ! -f "$JAR" || ! -f "$BENCH_JAR" ]]; then
  (cd "$ROOT" && mvn -q -DskipTests package -pl examples,benchmarks -am)
fi
mkdir -p "$OUT"

REDIS_SERVER="$(command -v redis-server || true)"
if [[ -z "$REDIS_SERVER" ]]; then
  EMBEDDED="$(find "$HOME/.m2/repository/org/signal/embedded-redis" -name 'embedded-redis-*.jar' | head -1)"
  [[ -n "$EMBEDDED" ]] || { echo "cluster.sh: no redis-server and no embedded-redis jar" >&2; exit 1; }
  (cd "$OUT" && unzip -o -q "$EMBEDDED" 'redis-server-*-linux-amd64')
  REDIS_SERVER="$(ls "$OUT"/redis-server-*-linux-amd64 | head -1)"
  chmod +x "$REDIS_SERVER"
fi

REDIS_PORT=$((BASE_PORT))
NGINX_PORT=$((BASE_PORT + 1))
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -f "$OUT/nginx/nginx.pid" ]] && kill "$(cat "$OUT/nginx/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

"$REDIS_SERVER" --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no >"$OUT/redis.log" 2>&1 &
PIDS+=($!)

start_nginx() { # http ports...
  mkdir -p "$OUT/nginx/logs" "$OUT/nginx/tmp"
  {
    echo "worker_processes 1; pid $OUT/nginx/nginx.pid; error_log $OUT/nginx/logs/error.log warn; user root;"
    echo "events { worker_connections 4096; }"
    echo "http { access_log off; client_body_temp_path $OUT/nginx/tmp; proxy_temp_path $OUT/nginx/tmp;"
    echo "  upstream mcp {"
    for p in "$@"; do echo "    server 127.0.0.1:$p;"; done
    echo "    keepalive 64; }"
    echo "  server { listen 127.0.0.1:$NGINX_PORT; location / { proxy_pass http://mcp;"
    echo "    proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_set_header Host 127.0.0.1;"
    echo "    proxy_buffering off; proxy_read_timeout 300s; } } }"
  } >"$OUT/nginx/nginx.conf"
  "$NGINX" -p "$OUT/nginx" -c "$OUT/nginx/nginx.conf"
}
stop_nginx() {
  kill "$(cat "$OUT/nginx/nginx.pid")" 2>/dev/null || true
  sleep 0.5
}

NODE_PIDS=()
start_nodes() { # count
  local count=$1 members="" i
  for i in $(seq 1 "$count"); do members+="127.0.0.1:$((BASE_PORT + 20 + i)),"; done
  members="${members%,}"
  NODE_PIDS=()
  for i in $(seq 1 "$count"); do
    # shellcheck disable=SC2086
    java $JVM_OPTS -jar "$JAR" conformance --http $((BASE_PORT + 10 + i)) --store redis \
      --redis-url "redis://127.0.0.1:$REDIS_PORT" --cluster --cluster-port $((BASE_PORT + 20 + i)) \
      --cluster-members "$members" --instance-id "node$i" >"$OUT/node$i-$count.log" 2>&1 &
    NODE_PIDS+=($!)
  done
  for i in $(seq 1 "$count"); do
    for _ in $(seq 1 300); do
      curl -sf "http://127.0.0.1:$((BASE_PORT + 10 + i))/health/ready" >/dev/null && break
      sleep 0.1
    done
  done
  local ports=()
  for i in $(seq 1 "$count"); do ports+=($((BASE_PORT + 10 + i))); done
  start_nginx "${ports[@]}"
}
stop_nodes() {
  stop_nginx
  for pid in "${NODE_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${NODE_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}

HDR=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")
init_sessions() { # url file
  : >"$2"
  local i sid
  for i in $(seq 1 "$SESSIONS"); do
    sid="$(curl -s -D - -o /dev/null "${HDR[@]}" "$1" -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cluster.sh","version":"1"}}}' \
      | tr -d '\r' | awk 'tolower($1) == "mcp-session-id:" { print $2 }')"
    [[ -n "$sid" ]] || { echo "cluster.sh: initialize returned no session" >&2; exit 1; }
    curl -s -f -o /dev/null "${HDR[@]}" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: 2025-11-25" "$1" \
      -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    echo "$sid" >>"$2"
  done
}

CSV="$OUT/results.csv"
echo "round,instances,rps,p50_us,p99_us,non2xx,socket_errors,bad" >"$CSV"
URL="http://127.0.0.1:$NGINX_PORT/mcp"
for round in $(seq 1 "$ROUNDS"); do
  for count in 1 3; do
    start_nodes "$count"
    init_sessions "$URL" "$OUT/sessions-$count.txt"
    MCP_TOOL=greet wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" -s "$LUA" "$URL" -- "$OUT/sessions-$count.txt" \
      2025-11-25 check >"$OUT/warmup-$round-$count.txt"
    grep -q "bad=0" "$OUT/warmup-$round-$count.txt" || { echo "cluster.sh: bad responses during warm-up:" >&2;
      cat "$OUT/warmup-$round-$count.txt" >&2; exit 1; }
    MCP_TOOL=greet wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$LUA" "$URL" -- \
      "$OUT/sessions-$count.txt" 2025-11-25 nocheck >"$OUT/measure-$round-$count.txt"
    line="$(grep '^BENCH ' "$OUT/measure-$round-$count.txt")"
    get() { sed -E "s/.* $1=([0-9.]+).*/\1/" <<<"$line"; }
    echo "$round,$count,$(get rps),$(get p50_us),$(get p99_us),$(get non2xx),$(get socket_errors),0" >>"$CSV"
    echo "round $round, $count instance(s): $(get rps) req/s, p50 $(get p50_us) µs, p99 $(get p99_us) µs"
    if [[ "$count" == 3 && "$round" == "$ROUNDS" ]]; then
      echo "non-owner hop ($HOP_REQUESTS requests each way, one at a time):"
      java -jar "$BENCH_JAR" hop --owner "http://127.0.0.1:$((BASE_PORT + 11))/mcp" \
        --other "http://127.0.0.1:$((BASE_PORT + 12))/mcp" --requests "$HOP_REQUESTS" --warmup "$HOP_REQUESTS" \
        | tee "$OUT/hop.txt"
    fi
    stop_nodes
  done
done
echo
awk -F, 'NR > 1 { s[$2] += $3; n[$2]++ } END { r1 = s[1] / n[1]; r3 = s[3] / n[3];
  printf "mean throughput: 1 instance %.0f req/s, 3 instances %.0f req/s, ratio 3/1 = %.2f\n", r1, r3, r3 / r1 }' \
  "$CSV" | tee "$OUT/summary.txt"
echo "results in $OUT"
