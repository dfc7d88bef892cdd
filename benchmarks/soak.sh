#!/usr/bin/env bash
# Soak run (not in CI): one server under mixed load for DURATION seconds, its heap after a full GC, file
# descriptors and threads sampled every SAMPLE seconds. See docs/security.md ("Soak") for the figures of a run.
#
#   nice -n 10 benchmarks/soak.sh                            # 30 minutes
#   DURATION=120 SAMPLE=20 benchmarks/soak.sh                # a short check of the script itself
#
# The load (e2e/soak.mjs) on the conformance example: 2025 sessions used then deleted or abandoned, initializes never
# initialized, GET streams dropped and resumed, task-augmented calls polled to their results, 2026-07-28 stateless
# calls, and slowloris sockets reopened whenever the server closes them.
# Sessions expire after SESSION_IDLE_MS here (the default is 30 min), so abandoned ones come and go during the run.
#
# Settings (environment): DURATION=1800 SAMPLE=60 CONCURRENCY=16 SLOWLORIS=50 PORT=18531 SESSION_IDLE_MS=60000
#   JVM_OPTS="-Xms256m -Xmx512m" OUT=benchmarks/target/soak-<timestamp>
# Results in OUT: samples.csv (seconds, heap used after full GC in KB, fds, threads), load.json (the load's
# counts), server.log, and report.txt: the heap's trend per 10 minutes over the samples under load after WARM seconds
# (300), its range, fds and threads under load and after it. Exit code 1 when a normal request failed.
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
java $JVM_OPTS -jar "$JAR" conformance --config "$OUT/config.json" > "$OUT/server.log" 2>&1 &
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

# The heap's trend is the least-squares slope of the samples taken under load after the warm-up (one sample says
# little: the live sessions and streams come and go); the last sample, taken once the load has stopped, shows what
# is left when nothing is in flight.
awk -F, -v warm="$WARM" 'NR > 1 { t[NR] = $1; h[NR] = $2; f[NR] = $3; th[NR] = $4; last = NR }
  END {
    for (i = 2; i < last; i++) {
      if (t[i] < warm) continue
      n++; sx += t[i]; sy += h[i]; sxx += t[i] * t[i]; sxy += t[i] * h[i]
      if (n == 1 || h[i] < hmin) hmin = h[i]; if (n == 1 || h[i] > hmax) hmax = h[i]
      if (n == 1 || f[i] < fmin) fmin = f[i]; if (n == 1 || f[i] > fmax) fmax = f[i]
      if (n == 1 || th[i] < tmin) tmin = th[i]; if (n == 1 || th[i] > tmax) tmax = th[i]
    }
    if (n < 3) { print "not enough samples after the warm-up"; exit }
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    printf "heap after full GC under load (%d samples from %d s): %d..%d KB, trend %.1f KB per 10 min\n", n, warm, hmin, hmax, slope * 600
    printf "file descriptors under load: %d..%d, after it: %d\nthreads under load: %d..%d, after it: %d\n", fmin, fmax, f[last], tmin, tmax, th[last]
    printf "heap after full GC once the load stopped: %d KB\n", h[last]
  }' "$OUT/samples.csv" > "$OUT/report.txt"
cat "$OUT/report.txt"
cat "$OUT/load.json"
exit "$STATUS"
