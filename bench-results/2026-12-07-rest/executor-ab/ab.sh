#!/usr/bin/env bash
# Ad hoc: Triple REST at 1 connection, default vs direct executor, and Connect unary on the same server.
set -u
cd /work/wt-restbench
jar=triple-benchmark/triple/target/triple-benchmarks.jar
out=/tmp/rb-diag; rm -rf $out; mkdir -p $out
printf '%s' '{"id":"42","name":"Doug Lea","email":"dev@triplerpc.io","mobile":"18612345678"}' > $out/post.json
printf '%s' '{"id":"42"}' > $out/get.json
pct() { sort -n -k3 "$1" | awk '{a[NR]=$3} END {n=NR; printf "n=%d p50=%d p90=%d p99=%d p99.9=%d us\n", n, a[int(n*0.5+0.999)], a[int(n*0.9+0.999)], a[int(n*0.99+0.999)], a[int(n*0.999+0.999)]}'; }
for round in 1 2; do
for mode in default direct; do
  props=(); [ $mode = direct ] && props=(-Dtriple.bench.executor=direct)
  java -Xms512m -Xmx512m "${props[@]}" -cp $jar io.triplerpc.benchmark.triple.UserRestServer --port=0 > $out/server-$mode.log 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do p=$(awk '/^LISTENING/{print $2}' $out/server-$mode.log 2>/dev/null); [ -n "$p" ] && break; sleep 0.5; done
  base=http://127.0.0.1:$p
  h2load --h1 -c 16 -D 8 $base/v1/users/42 > /dev/null 2>&1
  h2load --h1 -c 16 -D 8 -d $out/post.json -H 'content-type: application/json' $base/v1/users > /dev/null 2>&1
  for case in rest-get rest-post connect-post; do
    case $case in
      rest-get) args=($base/v1/users/42) ;;
      rest-post) args=(-d $out/post.json -H 'content-type: application/json' $base/v1/users) ;;
      connect-post) args=(-d $out/get.json -H 'content-type: application/json' $base/triple.benchmark.UserRestService/getUser) ;;
    esac
    h2load --h1 -c 1 -m 1 --warm-up-time=5s -D 10 --log-file=$out/$mode-$case-r$round.log "${args[@]}" > $out/$mode-$case-r$round.txt 2>&1
    printf '%-8s %-13s r%d %s  %s\n' $mode $case $round "$(grep -o '[0-9.]* req/s' $out/$mode-$case-r$round.txt | head -1)" "$(pct $out/$mode-$case-r$round.log)"
  done
  kill $pid; wait $pid 2>/dev/null
done
done
