#!/usr/bin/env bash
# The interleaved h2load loop behind the ceiling figures of 2026-11-26 in docs/benchmarks.md (commit 48939ce):
#   CONFIGS="netty:;triple:;direct:-Dtriple.bench.executor=direct;grpc:" ROUNDS=3 WARM=5 SECS=6 ceiling.sh
# /tmp/h2/req.bin is a framed GetUserRequest{id: 42}: printf '\x00\x00\x00\x00\x02\x08\x2a'. Results: one line per run,
# "<round> <case> m=<streams> <req/s>", in 2026-11-26-48939ce.txt. scripts/bench.sh --only h2load measures the same.
cd "$(dirname "$0")/../.."
req=/tmp/h2/req.bin
jar=triple-benchmark/triple/target/triple-benchmarks.jar
IFS=';' read -ra cfgs <<< "$CONFIGS"
for round in $(seq 1 ${ROUNDS:-3}); do
  for c in "${cfgs[@]}"; do
    name=${c%%:*}; opts=${c#*:}
    cls=io.triplerpc.benchmark.triple.UserServer
    cp=$jar
    [ "$name" = netty ] && cls=io.triplerpc.benchmark.triple.MinimalGrpcServer
    [ "$name" = grpc ] && cls=io.triplerpc.benchmark.grpc.GrpcUserServer && cp=triple-benchmark/grpc/target/grpc-benchmarks.jar
    java -Xms512m -Xmx512m $opts -cp $cp $cls --port=0 > /tmp/h2/cmp-server.log 2>&1 &
    pid=$!
    for i in $(seq 1 60); do port=$(awk '/^LISTENING / {print $2; exit}' /tmp/h2/cmp-server.log); [ -n "$port" ] && break; sleep 0.5; done
    url=http://127.0.0.1:$port/triple.benchmark.UserService/getUser
    for m in ${M:-32 100}; do
      h2load -c 1 -t 1 -m $m -D ${WARM:-4} -d $req -H 'content-type: application/grpc' -H 'te: trailers' $url > /dev/null 2>&1
      r=$(h2load -c 1 -t 1 -m $m -D ${SECS:-5} -d $req -H 'content-type: application/grpc' -H 'te: trailers' $url 2>&1 | grep -oE 'finished in [^,]*, [0-9.]+ req/s' | grep -oE '[0-9.]+ req/s' | cut -d' ' -f1)
      echo "$round $name m=$m $r" | tee -a /tmp/h2/cmp-results.txt
    done
    kill $pid; wait $pid 2>/dev/null
  done
done
