#!/usr/bin/env bash
# Issue 36, item 4, measured out of process: the interop server in a JVM of its own (--log_memory=true), eight
# HTTP/2 connections that ask it for large responses (StreamingOutputCall) with a flow-control window of 0 and
# never read them, closed once the server has answered or refused them; the server's resident memory, its
# buffer allocator's direct memory and what the JVM committed (NMT), before / at the peak / 10 s and 60 s after
# the close. One line per sample on standard output; DIR/summary.txt, DIR/timeline.csv, DIR/server.log.
#
#   scripts/slow-readers.sh [--server-jvm "-Dio.triplerpc.server.allocator=adaptive"] [--env "MALLOC_ARENA_MAX=2"]
#                           [--connections 8] [--streams 16] [--responses 8] [--response-size 1048576]
#                           [--hold 5] [--after 10,60] [--label NAME] [--out DIR] [--no-build]
#
# MAVEN_ARGS (e.g. "-o -Dmaven.repo.local=DIR") is passed to the build, which compiles triple-interop-testing
# and what it needs (mvn test-compile) unless --no-build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build=true
args=()
# shellcheck disable=SC2206 # MAVEN_ARGS is a list of words, as Maven 3.9 reads it.
mvn_args=(${MAVEN_ARGS:-})
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    --*=*) args+=("$1") ;;
    --*) args+=("$1" "${2:?$1 needs a value}"); shift ;;
    *) echo "slow-readers.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
module=triple-interop-testing
if [ "$build" = true ] || [ ! -f "$module/target/soak.classpath" ]; then
  echo "slow-readers.sh: building $module and what it needs (mvn test-compile)..." >&2
  mvn "${mvn_args[@]+"${mvn_args[@]}"}" -B -q -Dstyle.color=never test-compile dependency:build-classpath \
      -pl "$module" -am -Dcheckstyle.skip -Dmdep.includeScope=test -Dmdep.outputFile=target/soak.classpath \
      >"$module/target/slow-readers-build.log" 2>&1 \
      || { echo "slow-readers.sh: the build failed; see $module/target/slow-readers-build.log" >&2; exit 1; }
fi
exec java -Xmx256m -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/soak.classpath")" \
    io.triplerpc.interop.memory.SlowReaders "${args[@]+"${args[@]}"}"
