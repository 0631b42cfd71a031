#!/usr/bin/env bash
# Three interleaved rounds of FeatureCostBenchmark (each round runs every row), with both JVMs' CPU per call.
cd "$(dirname "$0")/../.."
for round in 1 2 3; do
  java -jar triple-benchmark/triple/target/triple-benchmarks.jar FeatureCostBenchmark -t 32 -f 1 -wi 2 -w 5s -i 4 -r 5s \
    -prof gc -prof io.triplerpc.benchmark.harness.ServerCpuProfiler \
    -rf json -rff "bench-results/feature-cost/r$round.json" > "bench-results/feature-cost/r$round.log" 2>&1
done
