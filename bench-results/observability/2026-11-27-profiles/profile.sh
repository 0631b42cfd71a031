#!/bin/bash
# measurement-only CPU profiles of both JVMs for one observe case
cd /work/main
o=$1; out=/tmp/pobs2/$o; rm -rf $out; mkdir -p $out
AP=$PWD/triple-benchmark/target/async-profiler-4.6/libasyncProfiler.so
java -jar triple-benchmark/triple/target/triple-benchmarks.jar 'ObservabilityBenchmark\.getUser$' -p observe=$o -t 32 -f 1 -wi 2 -w 5s -i 4 -r 5s \
  -prof "async:libPath=$AP;event=cpu;interval=1000000;output=collapsed;dir=$out/c" -prof io.triplerpc.benchmark.harness.ServerCpuProfiler > $out/log 2>&1 &
bench=$!
for i in $(seq 1 60); do grep -q "^Iteration   1" $out/log 2>/dev/null && break; sleep 1; done
pid=$(pgrep -f "benchmark.triple.UserServer" | head -1)
jcmd $pid JVMTI.agent_load $AP "\"start,event=cpu,interval=1ms\"" > /dev/null
sleep 15
jcmd $pid JVMTI.agent_load $AP "\"stop,file=$out/server.collapsed,collapsed\"" > /dev/null
wait $bench
cp $(find $out/c -name "*.csv" | head -1) $out/client.collapsed
grep -E "getUser(:client.cpu|:server.cpu)? " $out/log | tail -3
