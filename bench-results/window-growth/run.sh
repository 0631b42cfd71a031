#!/usr/bin/env bash
# Window growth (bandwidth-delay product) against fixed 1 MiB windows and grpc-java, interleaved:
#   slow link: SweepBenchmark.echo, 1 MiB each way, 8 threads, one connection through a relay adding 20 ms each way
#   loopback:  the same echo, 32 threads, no relay (the sweep's 1 MiB point)
#   getUser and listUserLarge (TripleBenchmark, 32 threads): what the measurement PINGs cost small and large calls
# Run from the repository root after building the benchmark jars; raw JMH JSON lands next to this script.
set -euo pipefail
out="$(dirname "$0")"
triple=triple-benchmark/triple/target/triple-benchmarks.jar
grpc=triple-benchmark/grpc/target/grpc-benchmarks.jar
fixed="-Dtriple.bench.maxWindow=1048576 -Dbench.server.jvmArgs=-Dtriple.bench.maxWindow=1048576"
rounds="${ROUNDS:-2}"
run() { # name jar jvmArgs benchmark args...
  local name="$1" jar="$2" jvm="$3" bench="$4"; shift 4
  java -jar "$jar" "$bench" -f 1 -jvmArgsAppend "-Xms1g -Xmx1g $jvm" -rf json -rff "$out/$name.json" "$@" > "$out/$name.log" 2>&1
  echo "$name done"
}
for r in $(seq 1 "$rounds"); do
  slow=(-t 8 -bm sample -tu ms -p payload=1048576 -p connections=1 -p linkDelayMillis=20 -wi 1 -w 10s -i 3 -r 10s)
  run "slow-triple-r$r" "$triple" "" '\.echo$' "${slow[@]}"
  run "slow-triple-fixed-r$r" "$triple" "$fixed" '\.echo$' "${slow[@]}"
  run "slow-grpc-r$r" "$grpc" "" '\.echo$' "${slow[@]}"
  loop=(-t 32 -bm sample -tu us -p payload=1048576 -p connections=1 -wi 1 -w 8s -i 3 -r 4s)
  run "loopback-triple-r$r" "$triple" "" '\.echo$' "${loop[@]}"
  run "loopback-triple-fixed-r$r" "$triple" "$fixed" '\.echo$' "${loop[@]}"
  run "loopback-grpc-r$r" "$grpc" "" '\.echo$' "${loop[@]}"
  small=(-t 32 -wi 2 -w 5s -i 3 -r 5s)
  run "getUser-triple-r$r" "$triple" "" 'TripleBenchmark.getUser$' "${small[@]}"
  run "getUser-triple-fixed-r$r" "$triple" "$fixed" 'TripleBenchmark.getUser$' "${small[@]}"
  run "listUserLarge-triple-r$r" "$triple" "" 'TripleBenchmark.listUserLarge$' "${small[@]}"
  run "listUserLarge-triple-fixed-r$r" "$triple" "$fixed" 'TripleBenchmark.listUserLarge$' "${small[@]}"
done
