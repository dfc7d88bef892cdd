#!/usr/bin/env bash
# Interleaved A/B of two servers (ours, or a peer of the harness): both warm on CPU 0 at once, measured one after
# the other in short slices (wrk on CPU 1), many times, and judged by the median of the per-pair ratios B/A. On a
# shared VM whose speed drifts by tens of per cent from one minute to the next, two servers measured a minute apart
# (as the peer harness does) cannot be told apart by a few per cent; two slices a few seconds apart mostly can.
#
#   benchmarks/ab.sh KIND_A JAR_A KIND_B JAR_B            # e.g. mcp old.jar mcp new.jar: W1 of two builds
#   benchmarks/ab.sh mcp target/x.jar mcp2026 target/x.jar # W1 against W10 of one build, each in its own JVM
#   PAIRS=20 SLICE=3 ARGS_B="--response sse" benchmarks/ab.sh mcp x.jar mcp x.jar   # W3 against W1
#   benchmarks/ab.sh mcp peer:quarkus-mcp mcp target/x.jar # W1 of ours against a peer of the harness
#
# A JAR of the form peer:NAME is the peer NAME of the harness's peers.conf, started with its own start command and
# called with its own echo argument (the peer must be built: run-peers.sh --build).
#
# KIND is the peer harness's driver kind: mcp (a warm 2025-11-25 session, tools/call echo) or mcp2026 (stateless,
# with _meta and the routing headers). Settings (environment): PAIRS (12), SLICE seconds (3), WARMUP seconds per
# server (20), ARGS_A / ARGS_B (extra server arguments), PEERS_DIR (default: ../shared/peers beside this
# checkout; only its driver is used). Needs JDK 17, Node 18+, wrk, taskset, curl.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/peers}"
DRIVER="$PEERS_DIR/driver"
PAIRS="${PAIRS:-12}"; SLICE="${SLICE:-3}"; WARMUP="${WARMUP:-20}"
[[ $# -eq 4 ]] || { sed -n '2,18p' "$0" >&2; exit 2; }
KIND_A=$1; JAR_A=$2; KIND_B=$3; JAR_B=$4
[[ -f "$DRIVER/tools-call.lua" ]] || { echo "ab.sh: no peer driver at $DRIVER (set PEERS_DIR)" >&2; exit 2; }
PORT_A=18211; PORT_B=18212

PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT
conf() { # peer key -> the value peers.conf gives the key in the peer's section
  awk -v peer="[$1]" -v key="$2" '
    /^\[/ { inside = ($1 == peer) }
    inside && $1 == key && $2 == "=" { sub(/^[^=]*=[ \t]*/, ""); print; exit }' "$PEERS_DIR/peers.conf"
}
arg() { # jar -> the echo tool's argument name
  if [[ $1 == peer:* ]]; then local a; a=$(conf "${1#peer:}" arg); echo "${a:-message}"; else echo text; fi
}
start() { # port jar args
  if [[ $2 == peer:* ]]; then
    local cmd; cmd=$(conf "${2#peer:}" start)
    [[ -n $cmd ]] || { echo "ab.sh: no peer ${2#peer:} in $PEERS_DIR/peers.conf" >&2; exit 2; }
    # As the harness runs it: in its directory, with PORT, JAVA and JVM_OPTS set, pinned to the server's CPU.
    (cd "$PEERS_DIR" && PORT=$1 JAVA=java JVM_OPTS=-Xmx512m exec taskset -c 0 bash -c "exec $cmd") \
      > "$ROOT/benchmarks/target/ab-$1.log" 2>&1 &
  else
    # shellcheck disable=SC2086
    taskset -c 0 java -Xmx512m -jar "$2" mcp --port "$1" $3 > "$ROOT/benchmarks/target/ab-$1.log" 2>&1 &
  fi
  PIDS+=($!)
  for _ in $(seq 120); do curl -s -o /dev/null "http://127.0.0.1:$1/" && return 0; sleep 0.25; done
  echo "ab.sh: the server on port $1 did not start (see benchmarks/target/ab-$1.log)" >&2; exit 1
}
session() { # port kind arg -> "SESSION PROTOCOL" as the driver wants them
  if [[ $2 == mcp2026 ]]; then echo "- 2026-07-28"; return; fi
  local out
  out=$(node "$DRIVER/mcp-session.mjs" --url "http://127.0.0.1:$1/mcp" --kind mcp --arg "$3")
  echo "$(sed -n 's/^SESSION_ID=//p' <<< "$out") $(sed -n 's/^PROTOCOL_VERSION=//p' <<< "$out")"
}
rps() { # port kind session seconds arg
  # shellcheck disable=SC2086
  taskset -c 1 wrk -t1 -c32 -d"$4"s -s "$DRIVER/tools-call.lua" "http://127.0.0.1:$1/mcp" -- "$2" $3 "$5" 2>&1 \
    | sed -n 's/.*rps=\([0-9.]*\).*/\1/p'
}

mkdir -p "$ROOT/benchmarks/target"
start $PORT_A "$JAR_A" "${ARGS_A:-}"
start $PORT_B "$JAR_B" "${ARGS_B:-}"
ARG_A=$(arg "$JAR_A"); ARG_B=$(arg "$JAR_B")
S_A=$(session $PORT_A "$KIND_A" "$ARG_A"); S_B=$(session $PORT_B "$KIND_B" "$ARG_B")
rps $PORT_A "$KIND_A" "$S_A" "$WARMUP" "$ARG_A" > /dev/null
rps $PORT_B "$KIND_B" "$S_B" "$WARMUP" "$ARG_B" > /dev/null

echo "A: $KIND_A $JAR_A ${ARGS_A:-}"
echo "B: $KIND_B $JAR_B ${ARGS_B:-}"
RATIOS=()
for i in $(seq "$PAIRS"); do
  # Which goes first alternates, so neither always follows the other's slice.
  if (( i % 2 )); then a=$(rps $PORT_A "$KIND_A" "$S_A" "$SLICE" "$ARG_A"); b=$(rps $PORT_B "$KIND_B" "$S_B" "$SLICE" "$ARG_B")
  else b=$(rps $PORT_B "$KIND_B" "$S_B" "$SLICE" "$ARG_B"); a=$(rps $PORT_A "$KIND_A" "$S_A" "$SLICE" "$ARG_A"); fi
  r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
  RATIOS+=("$r")
  echo "pair $i: A $a req/s, B $b req/s, B/A $r"
done
printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "median B/A %.3f (min %.3f, max %.3f, %d pairs)\n", m, v[1], v[NR], NR }'
