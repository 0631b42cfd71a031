#!/usr/bin/env bash
# Where an open-loop call's tail goes: ghz's open loop (as scripts/bench.sh runs it) against Triple's
# server with its metrics on, the server's own latency histogram (grpc.server.call.duration, scraped
# from /metrics before and after each run) beside ghz's, both processes' CPU time from /proc, and a
# CPU flame graph of each server during its 50% run. Run from the repository root after building the
# benchmark jars (and scripts/bench.sh having fetched async-profiler and ghz).
set -euo pipefail
out="$(cd "$(dirname "$0")" && pwd)"
ghz="${GHZ:-$HOME/go/bin/ghz}"
profiler=triple-benchmark/target/async-profiler-4.6/libasyncProfiler.so
proto_dir=triple-benchmark/workload/src/main/proto
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
for name in triple triple-direct grpc; do
  case $name in
    triple) cp=triple-benchmark/triple/target/triple-benchmarks.jar; main=io.triplerpc.benchmark.triple.UserServer
            jvm=(-Dtriple.bench.observe=metrics) ;;
    # Services on the event loop (TripleServer.Builder.directExecutor()): no hand-off to a worker.
    triple-direct) cp=triple-benchmark/triple/target/triple-benchmarks.jar; main=io.triplerpc.benchmark.triple.UserServer
            jvm=(-Dtriple.bench.observe=metrics -Dtriple.bench.executor=direct) ;;
    grpc) cp=triple-benchmark/grpc/target/grpc-benchmarks.jar; main=io.triplerpc.benchmark.grpc.GrpcUserServer; jvm=() ;;
  esac
  log="$out/server-$name.log"
  java -Xms512m -Xmx512m -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints "${jvm[@]}" -cp "$cp" "$main" --port=0 \
    > "$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do port="$(awk '/^LISTENING / {print $2; exit}' "$log")"; [ -n "$port" ] && break; sleep 0.5; done
  run=("$ghz" --insecure --import-paths "$proto_dir" --proto "$proto_dir/user_service.proto"
    --call triple.benchmark.UserService.getUser -d '{"id":42}' --connections 1 --duration-stop wait -O json)
  "${run[@]}" -c 100 -z 15s -o /dev/null "127.0.0.1:$port" > /dev/null 2>&1
  "${run[@]}" -c 100 -z 10s -o "$out/$name-max.json" "127.0.0.1:$port" > /dev/null 2>&1
  max="$(grep -o '"rps":[0-9.]*' "$out/$name-max.json" | tail -1 | cut -d: -f2 | cut -d. -f1)"
  echo "$name closed-loop max $max calls/s"
  for load in 50 75; do
    rate=$(( max * load / 100 ))
    [ "$name" != grpc ] && curl -s "http://127.0.0.1:$port/metrics" > "$out/$name-$load-metrics-before.txt"
    before_server="$(cpu_ticks "$pid")"
    /usr/bin/time -f "%U %S" -o "$out/$name-$load-ghz-cpu.txt" \
      "${run[@]}" --async --rps "$rate" -c 4 -z 10s -o "$out/$name-$load.json" "127.0.0.1:$port" > /dev/null 2>&1
    after_server="$(cpu_ticks "$pid")"
    echo "$(( after_server - before_server ))" > "$out/$name-$load-server-ticks.txt"
    [ "$name" != grpc ] && curl -s "http://127.0.0.1:$port/metrics" > "$out/$name-$load-metrics-after.txt"
    echo "  $load%: $rate calls/s asked"
  done
  # A CPU flame graph of the server at 50% in a run of its own: the profiler's samples cost the server
  # CPU, so the measured runs above go without it.
  jcmd "$pid" JVMTI.agent_load "$PWD/$profiler" "\"start,event=cpu,interval=1ms\"" > /dev/null
  "${run[@]}" --async --rps $(( max / 2 )) -c 4 -z 10s -o /dev/null "127.0.0.1:$port" > /dev/null 2>&1
  jcmd "$pid" JVMTI.agent_load "$PWD/$profiler" "\"stop,file=$out/$name-server-50.html\"" > /dev/null
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
python3 "$out/summary.py"
