#!/usr/bin/env bash
# getUser's CPU per call (both JVMs, from /proc), growing vs fixed windows, three interleaved rounds.
set -euo pipefail
out="$(dirname "$0")"
triple=triple-benchmark/triple/target/triple-benchmarks.jar
fixed="-Dtriple.bench.maxWindow=1048576 -Dbench.server.jvmArgs=-Dtriple.bench.maxWindow=1048576"
for r in 1 2 3; do
  for c in fixed growing; do
    jvm=""; [ "$c" = fixed ] && jvm="$fixed"
    java -jar "$triple" 'TripleBenchmark.getUser$' -f 1 -t 32 -wi 2 -w 5s -i 4 -r 5s -jvmArgsAppend "-Xms1g -Xmx1g $jvm" \
      -prof io.triplerpc.benchmark.harness.ServerCpuProfiler -rf json -rff "$out/cpu-getUser-$c-r$r.json" > "$out/cpu-getUser-$c-r$r.log" 2>&1
    echo "cpu-getUser-$c-r$r done"
  done
done
