#!/usr/bin/env bash
# The soak run (issue 36): a Triple server in a JVM of its own (the interop server), loaded by a driver in
# another with a mixed workload at a steady rate (open loop): unary, server-, client- and bidi-streaming
# calls over gRPC, gRPC-Web and Connect (HTTP/2) and Connect over HTTP/1.1; statuses asked for, cancels,
# deadlines that expire, 1 KiB and 1 MiB messages, one client replaced by a new one every 10 s. Every
# sample interval it records the server's heap after GC, the allocator's direct and heap memory, threads,
# open descriptors and leak reports, and the driver's calls/s, p50/p99 and errors by status (asked for or
# not). At the end it fits a line through each series after the warm-up, checks the issue's goals and
# prints one line, `soak result=pass|fail ...`; exits 1 on fail. The series go to DIR/soak.csv and
# DIR/errors.csv, the chart to DIR/soak.png, the report to DIR/summary.txt, the server's log to
# DIR/server.log (its `LEAK:` lines are counted), the driver's to DIR/driver.log.
#
#   scripts/soak.sh [--duration 1h] [--sample-interval 60s] [--warmup 5m] [--rate 200] [--reconnect-every 10s]
#                   [--large-size 1048576] [--paranoid] [--server-jvm "-Xmx256m"] [--out DIR] [--no-build]
#
# --paranoid: Netty's leak detector at PARANOID in the server (every buffer tracked).
# --out: default target/soak/<UTC date and time>. MAVEN_ARGS (e.g. "-o -Dmaven.repo.local=DIR") is passed
# to the build. Builds triple-interop-testing and what it needs first (mvn test-compile) unless --no-build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=true
server_jvm="-Xmx256m"
paranoid=false
out=""
args=()
# shellcheck disable=SC2206 # MAVEN_ARGS is a list of words, as Maven 3.9 reads it.
mvn_args=(${MAVEN_ARGS:-})
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --paranoid) paranoid=true ;;
    --server-jvm) server_jvm="${2:?--server-jvm needs options}"; shift ;;
    --server-jvm=*) server_jvm="${1#*=}" ;;
    --out) out="${2:?--out needs a directory}"; shift ;;
    --out=*) out="${1#*=}" ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    --*=*) args+=("$1") ;;
    --*) args+=("$1" "${2:?$1 needs a value}"); shift ;;
    *) echo "soak.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ "$paranoid" = true ] && server_jvm="$server_jvm -Dio.netty.leakDetection.level=paranoid"
out="${out:-target/soak/$(date -u +%Y-%m-%dT%H%M%SZ)}"
mkdir -p "$out"

module=triple-interop-testing
if [ "$build" = true ] || [ ! -f "$module/target/soak.classpath" ]; then
  echo "soak.sh: building $module and what it needs (mvn test-compile)..."
  # In the reactor (-am), so that Triple's own modules are this tree's classes, not an installed copy.
  mvn "${mvn_args[@]+"${mvn_args[@]}"}" -B -q -Dstyle.color=never test-compile dependency:build-classpath \
      -pl "$module" -am -Dcheckstyle.skip -Dmdep.includeScope=test -Dmdep.outputFile=target/soak.classpath \
      >"$out/build.log" 2>&1 \
      || { echo "soak.sh: the build failed; see $out/build.log" >&2; exit 1; }
fi

echo "soak.sh: $(date -u +%H:%M:%SZ) starting; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), output in $out"
set +e
java -Xmx512m -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/soak.classpath")" \
    io.triplerpc.interop.soak.SoakDriver "${args[@]+"${args[@]}"}" --server-jvm "$server_jvm" --out "$out" \
    2>&1 | tee "$out/driver.log"
status=${PIPESTATUS[0]}
set -e
echo "soak.sh: $(date -u +%H:%M:%SZ) done; load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
