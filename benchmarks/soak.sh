#!/usr/bin/env bash
# Soak run (not in CI): one server under mixed load for DURATION seconds, its heap after a full GC, file
# descriptors and threads sampled every SAMPLE seconds. See docs/security.md ("Soak") for the figures of a run.
#
#   flock /tmp/mcp-heavy.lock benchmarks/soak.sh             # 30 minutes
#   DURATION=120 SAMPLE=20 benchmarks/soak.sh                # a short check of the script itself
#
# The load (e2e/soak.mjs): 2025 sessions used then deleted or abandoned, initializes never initialized, GET streams
# dropped and resumed, 2026-07-28 stateless calls, and slowloris sockets reopened whenever the server closes them.
# Sessions expire after SESSION_IDLE_MS here (the default is 30 min), so abandoned ones come and go during the run.
#
# Settings (environment): DURATION=1800 SAMPLE=60 CONCURRENCY=16 SLOWLORIS=50 PORT=18531 SESSION_IDLE_MS=60000
#   JVM_OPTS="-Xms256m -Xmx512m" OUT=benchmarks/target/soak-<timestamp>
# Results in OUT: samples.csv (seconds, heap used after full GC in KB, fds, threads), load.json (the load's
# counts), server.log, and report.txt: heap growth per 10 minutes from the first sample after WARM seconds (300) to
# the last, and fds and threads at both ends. Exit code 1 when a normal request failed.
# Needs: java 17+ with jcmd, node 20+, the examples jar (built if missing).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAR="${JAR:-$ROOT/examples/target/mcp-vertx-examples.jar}"
DURATION="${DURATION:-1800}"
SAMPLE="${SAMPLE:-60}"
WARM="${WARM:-300}"
CONCURRENCY="${CONCURRENCY:-16}"
SLOWLORIS="${SLOWLORIS:-50}"
PORT="${PORT:-18531}"
SESSION_IDLE_MS="${SESSION_IDLE_MS:-60000}"
JVM_OPTS="${JVM_OPTS:--Xms256m -Xmx512m}"
OUT="${OUT:-$ROOT/benchmarks/target/soak-$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$OUT"

if [[ ! -f "$JAR" ]]; then
  (cd "$ROOT" && mvn -q -o package -pl examples -am -DskipTests)
fi

cat > "$OUT/config.json" <<JSON
{ "http": { "port": $PORT, "sessionIdleTimeoutMs": $SESSION_IDLE_MS, "maxSessionsPerClient": 100000,
            "maxSessions": 100000 } }
JSON
# shellcheck disable=SC2086
java $JVM_OPTS -jar "$JAR" hello --config "$OUT/config.json" > "$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$PORT/health/live" > /dev/null && break
  sleep 0.2
done

node "$ROOT/e2e/soak.mjs" "http://127.0.0.1:$PORT" "$DURATION" "$CONCURRENCY" "$SLOWLORIS" > "$OUT/load.json" &
LOAD=$!

sample() {
  jcmd "$SERVER" GC.run > /dev/null
  local heap fds threads
  heap=$(jcmd "$SERVER" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | tr -dc '0-9')
  fds=$(ls "/proc/$SERVER/fd" | wc -l)
  threads=$(awk '/^Threads:/ {print $2}' "/proc/$SERVER/status")
  echo "$1,$heap,$fds,$threads" >> "$OUT/samples.csv"
}

echo "seconds,heap_used_kb,fds,threads" > "$OUT/samples.csv"
START=$(date +%s)
while kill -0 "$LOAD" 2>/dev/null; do
  sample $(( $(date +%s) - START ))
  sleep "$SAMPLE"
done
STATUS=0
wait "$LOAD" || STATUS=$?
sleep 2
sample $(( $(date +%s) - START ))

awk -F, -v warm="$WARM" 'NR > 1 {
    if (!base && $1 >= warm) { base = 1; t0 = $1; h0 = $2; f0 = $3; th0 = $4 }
    t1 = $1; h1 = $2; f1 = $3; th1 = $4
  }
  END {
    if (!base || t1 == t0) { print "not enough samples after the warm-up"; exit }
    printf "heap after full GC: %d KB at %d s, %d KB at %d s: %.1f KB per 10 min\n", h0, t0, h1, t1, (h1 - h0) * 600 / (t1 - t0)
    printf "file descriptors: %d -> %d\nthreads: %d -> %d\n", f0, f1, th0, th1
  }' "$OUT/samples.csv" > "$OUT/report.txt"
cat "$OUT/report.txt"
cat "$OUT/load.json"
exit "$STATUS"
