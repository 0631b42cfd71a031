#!/usr/bin/env bash
# Rounds 3-5 of getUser (growing vs fixed) and round 3 of the loopback 1 MiB echo, after run.sh.
set -euo pipefail
out="$(dirname "$0")"
triple=triple-benchmark/triple/target/triple-benchmarks.jar
grpc=triple-benchmark/grpc/target/grpc-benchmarks.jar
fixed="-Dtriple.bench.maxWindow=1048576 -Dbench.server.jvmArgs=-Dtriple.bench.maxWindow=1048576"
run() {
  local name="$1" jar="$2" jvm="$3" bench="$4"; shift 4
  java -jar "$jar" "$bench" -f 1 -jvmArgsAppend "-Xms1g -Xmx1g $jvm" -rf json -rff "$out/$name.json" "$@" > "$out/$name.log" 2>&1
  echo "$name done"
}
small=(-t 32 -wi 2 -w 5s -i 3 -r 5s)
for r in 3 4 5; do
  run "getUser-triple-fixed-r$r" "$triple" "$fixed" 'TripleBenchmark.getUser$' "${small[@]}"
  run "getUser-triple-r$r" "$triple" "" 'TripleBenchmark.getUser$' "${small[@]}"
done
loop=(-t 32 -bm sample -tu us -p payload=1048576 -p connections=1 -wi 1 -w 8s -i 3 -r 4s)
run "loopback-triple-r3" "$triple" "" '\.echo$' "${loop[@]}"
run "loopback-triple-fixed-r3" "$triple" "$fixed" '\.echo$' "${loop[@]}"
run "loopback-grpc-r3" "$grpc" "" '\.echo$' "${loop[@]}"
