#!/usr/bin/env bash
# A fuzzing run of one target (not in CI; a normal build only replays the committed inputs). See docs/security.md.
#
#   fuzz/run.sh codec 5000000            # five million executions of the codec target
#   fuzz/run.sh http 0 600               # the HTTP target for ten minutes (0: no bound on executions)
#
# Targets: codec, event-id, request-state, headers, repeated-headers, http. The corpus grows in
# fuzz/target/corpus/<target> (a later run goes on from it) and starts from the committed inputs of the target;
# findings (crash-*, timeout-*: an input that ran longer than 10 s) land in fuzz/target/findings/<target>/. Run
# `mvn test-compile -pl fuzz -am` first; this script then reads the class path from fuzz/target/cp.txt (written by
# `mvn dependency:build-classpath -pl fuzz -am -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test`).
# The last line libFuzzer prints ("Done N runs in S second(s)") is the count of executions.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${1:?target}"
RUNS="${2:-1000000}"
SECONDS_MAX="${3:-0}"

case "$TARGET" in
  codec) CLASS=io.mcpvertx.jsonrpc.JsonRpcCodecFuzzTest; METHOD=decodesAnyFrameToMessagesOrPreciseErrors
    INCLUDES='io.mcpvertx.**:com.fasterxml.jackson.core.**:io.vertx.core.json.**' ;;
  event-id) CLASS=io.mcpvertx.spi.memory.EventIdFuzzTest; METHOD=resumesOnlyTheNamedStreamOfTheSession
    INCLUDES='io.mcpvertx.**' ;;
  request-state) CLASS=io.mcpvertx.server.impl.stateless.RequestStatesFuzzTest; METHOD=opensOnlyWhatItSealed
    INCLUDES='io.mcpvertx.**:com.fasterxml.jackson.core.**:io.vertx.core.json.**' ;;
  headers) CLASS=io.mcpvertx.verticles.http.impl.StatelessHeadersFuzzTest
    METHOD=refusesPreciselyAndPassesOnlyAgreeingHeaders; INCLUDES='io.mcpvertx.**' ;;
  repeated-headers) CLASS=io.mcpvertx.verticles.http.impl.StatelessHeadersFuzzTest
    METHOD=findsExactlyTheRoutingHeadersGivenTwice; INCLUDES='io.mcpvertx.**' ;;
  http) CLASS=io.mcpvertx.verticles.http.HttpPostFuzzTest; METHOD=answersEveryPostPreciselyAndInTime
    INCLUDES='io.mcpvertx.**:io.vertx.ext.web.**' ;;
  *) echo "unknown target: $TARGET" >&2; exit 2 ;;
esac

CP="$ROOT/fuzz/target/test-classes:$(cat "$ROOT/fuzz/target/cp.txt")"
SEEDS="$ROOT/fuzz/src/test/resources/${CLASS//.//}Inputs/$METHOD"
CORPUS="$ROOT/fuzz/target/corpus/$TARGET"
FINDINGS="$ROOT/fuzz/target/findings/$TARGET"
mkdir -p "$CORPUS" "$FINDINGS" "$SEEDS"

exec java -Xmx1g -cp "$CP" com.code_intelligence.jazzer.Jazzer --target_class="$CLASS" --target_method="$METHOD" \
  --instrumentation_includes="$INCLUDES" -runs="$RUNS" -max_total_time="$SECONDS_MAX" -timeout=10 \
  -artifact_prefix="$FINDINGS/" -print_final_stats=1 "$CORPUS" "$SEEDS"
