#!/usr/bin/env bash
# Side-by-side peer benchmark: our server next to a bare Vert.x echo, Quarkus MCP, the MCP java-sdk and the TS SDK,
# measured one after the other in one run by the shared peer harness (its README says what one run does). Our
# server is the benchmarks jar (`mcp` mode), spoken to as a 2025-11-25 session (peer mcp-vertx, W1), as the stateless
# 2026-07-28 revision (peer mcp-vertx-2026, W10), and answering in event streams (peer mcp-vertx-sse, W3); with the
# metrics module on (peer mcp-vertx-metrics: W1 again, what metrics cost; compare it with mcp-vertx). Peers named
# *-2cpu run on both cores (see below). Whole sessions (W2 churn, W4 memory) are benchmarks/sessions.sh.
#
#   benchmarks/peers.sh                          # every configured peer, one round
#   ROUNDS=3 benchmarks/peers.sh                 # three rounds and a median table
#   benchmarks/peers.sh mcp-vertx quarkus-mcp    # some peers only (the echo baseline is always added)
#   benchmarks/peers.sh --build                  # first run on a machine: build the other peers too
#   BEFORE_JAR=/path/to/older/mcp-vertx-benchmarks.jar benchmarks/peers.sh mcp-vertx mcp-vertx-before
#                                                # an older build of ours beside this one, in the same run
#
# Settings (environment): PEERS_DIR (default: ../shared/peers beside this checkout, copied to a scratch folder so
# the added peer never touches the shared copy); every setting of the harness (ROUNDS, WARMUP, DURATION, JAVA, ...)
# passes through. Needs what the harness needs (JDK 17, Maven, Node 18+, wrk, taskset, curl).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/peers}"
JAR="$ROOT/benchmarks/target/mcp-vertx-benchmarks.jar"

if [[ ! -x "$PEERS_DIR/run-peers.sh" ]]; then
  echo "peers.sh: no peer harness at $PEERS_DIR (set PEERS_DIR to a checkout of it)" >&2
  exit 2
fi
if [[ ! -f "$JAR" ]]; then
  echo "peers.sh: building $JAR" >&2
  (cd "$ROOT" && mvn -B -q -DskipTests package -pl benchmarks -am)
fi

# The harness writes its results and builds beside itself: work on a copy, keep the results under target/.
WORK="$ROOT/benchmarks/target/peers"
mkdir -p "$WORK"
rsync -a --delete --exclude results "$PEERS_DIR/" "$WORK/harness/" 2>/dev/null \
  || { rm -rf "$WORK/harness"; cp -r "$PEERS_DIR" "$WORK/harness"; }

# W3: the same server answering every POST as an event stream (each event stored for resumption first).
cat >> "$WORK/harness/peers.conf" <<'CONF'

[mcp-vertx-sse]
kind   = mcp
arg    = text
port   = 18088
build  = true
start  = $JAVA $JVM_OPTS -jar ${MCP_VERTX_JAR:?set MCP_VERTX_JAR} mcp --port $PORT --response sse
CONF

# W1 with metrics on, as a deployment turns them on: Vert.x's own metrics, the server's observer and the scrape
# endpoint (on its own port, not scraped during the run; a scrape every 15 s costs nothing measurable beside this).
cat >> "$WORK/harness/peers.conf" <<'CONF'

[mcp-vertx-metrics]
kind   = mcp
arg    = text
port   = 18089
build  = true
start  = $JAVA $JVM_OPTS -jar ${MCP_VERTX_JAR:?set MCP_VERTX_JAR} mcp --port $PORT --metrics --metrics-port 19464
CONF

# Both cores for the server (the driver still shares CPU 1 with it): each peer again, its JVM let onto CPUs 0 and 1, so
# it sees 2 processors (our server then runs 2 HTTP verticles). Compare these peers with each other only, e.g.
#   BASELINE=vertx-echo-2cpu benchmarks/peers.sh vertx-echo-2cpu quarkus-mcp-2cpu mcp-vertx-2cpu
cat >> "$WORK/harness/peers.conf" <<'CONF'

[vertx-echo-2cpu]
kind   = echo
port   = 18091
build  = true
start  = taskset -c 0,1 $JAVA $JVM_OPTS -jar vertx-echo/target/vertx-echo.jar $PORT

[quarkus-mcp-2cpu]
kind   = mcp
port   = 18092
build  = true
start  = taskset -c 0,1 $JAVA $JVM_OPTS -Dquarkus.http.port=$PORT -jar quarkus-mcp/target/quarkus-app/quarkus-run.jar

[mcp-vertx-2cpu]
kind   = mcp
arg    = text
port   = 18093
build  = true
start  = taskset -c 0,1 $JAVA $JVM_OPTS -jar ${MCP_VERTX_JAR:?set MCP_VERTX_JAR} mcp --port $PORT
CONF

if [[ -n "${BEFORE_JAR:-}" ]]; then
  # Another build of ours as one more peer: the same start command as mcp-vertx, on its own port.
  cat >> "$WORK/harness/peers.conf" <<CONF

[mcp-vertx-before]
kind   = mcp
arg    = text
port   = 18087
build  = true
start  = \$JAVA \$JVM_OPTS -jar $BEFORE_JAR mcp --port \$PORT
CONF
fi

export MCP_VERTX_JAR="$JAR"
cd "$WORK/harness"
exec ./run-peers.sh "$@"
