#!/usr/bin/env bash
# Runs the benchmark suite: Triple, grpc-java and Apache Dubbo side by side (JMH, interleaved),
# Triple's ablation table, an h2load server ceiling (one connection, 32 and 100 streams in
# flight), ghz's open-loop latency, and sweeps (curves of an echo call against client threads,
# payload size and connections); then writes the results folder and the report (summary table,
# summary.json, charts).
#
#   scripts/bench.sh                 full run: 3 rounds (about 3 hours on 2 cores; --rounds 1: 65 minutes)
#   scripts/bench.sh --quick         one round, short measurements (about 30 minutes on 2 cores)
#   scripts/bench.sh --profile getUser [--contender triple]
#                                    one benchmark under async-profiler: client and server flame graphs
#   options: --out DIR (default bench-results/<time>), --docs (also regenerate docs/benchmarks.md),
#            --no-build, --rounds N (default 3, quick 1), --threads N (sync benchmarks, default 32),
#            --skip LIST: leave these phases out of the run ('ablation', 'h2load', 'ghz', 'sweep'), to
#            measure them later with --only into the same folder
#            --only LIST: re-measure only these benchmarks (and 'ablation', 'h2load', 'ghz', 'sweep') into
#            an existing --out folder, replacing their figures; the folder's machine.txt records the re-run
#            (a benchmark's ablations are re-measured with it; 'ablation': Triple's whole ablation table,
#            about 18 minutes a round of a full run;
#            'h2load': the server ceiling, about 2 minutes of --quick and 13 of a full run;
#            'ghz': the open-loop latency phase, about 3 minutes of --quick and 15 of a full run;
#            'sweep': the curves, 12 JMH runs per contender and round at the default --threads, about
#            12 minutes of --quick and an hour of a full run)
set -euo pipefail
command_line="scripts/bench.sh $*"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

mode=full
profile=""
profile_contender=triple
out=""
docs=false
build=true
threads=32
rounds_override=""
only=""
skip=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --profile) profile="$2"; mode=profile; shift ;;
    --profile=*) profile="${1#--profile=}"; mode=profile ;;
    --contender) profile_contender="$2"; shift ;;
    --contender=*) profile_contender="${1#--contender=}" ;;
    --out) out="$2"; shift ;;
    --out=*) out="${1#--out=}" ;;
    --docs) docs=true ;;
    --no-build) build=false ;;
    --rounds) rounds_override="$2"; shift ;;
    --rounds=*) rounds_override="${1#--rounds=}" ;;
    --threads) threads="$2"; shift ;;
    --threads=*) threads="${1#--threads=}" ;;
    --only) only="$2"; shift ;;
    --only=*) only="${1#--only=}" ;;
    --skip) skip="$2"; shift ;;
    --skip=*) skip="${1#--skip=}" ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

benchmarks=(existUser createUser getUser listUser listUserLarge streamUsers getUserAsync)
contenders=(triple grpc dubbo)
ablations=(flushPerCommand waitForStream callbackPool askChannel)
# The full run's warm-up is long enough for the JIT of every contender (grpc-java needs the most:
# about 20 s of 32 threads on 2 cores before its throughput settles). Quick mode fits in 15 minutes
# and is colder: its figures flatter the contender that warms up fastest; publish full runs only.
if [ "$mode" = quick ]; then
  rounds=1
  thrpt_opts=(-wi 2 -w 6s -i 3 -r 2s)
  sample_opts=(-wi 2 -w 6s -i 2 -r 2s)
  sample_benchmarks=(getUser)
  ablation_benchmarks=(getUser)
  h2load_warmup=6
  h2load_seconds=5
  ghz_warmup=6
  ghz_seconds=5
  sweep_opts=(-wi 1 -w 5s -i 2 -r 3s)
else
  rounds=3
  thrpt_opts=(-wi 3 -w 10s -i 3 -r 5s)
  sample_opts=(-wi 2 -w 10s -i 3 -r 5s)
  sample_benchmarks=(existUser createUser getUser listUser listUserLarge streamUsers)
  ablation_benchmarks=(getUser getUserAsync listUserLarge streamUsers)
  h2load_warmup=15
  h2load_seconds=10
  ghz_warmup=15
  ghz_seconds=10
  sweep_opts=(-wi 2 -w 8s -i 3 -r 4s)
fi
[ -n "$rounds_override" ] && rounds="$rounds_override"
run_h2load_step=true
run_ghz_step=true
run_sweep_step=true
if [ -n "$only" ]; then
  [ -n "$out" ] && [ -f "$out/machine.txt" ] || { echo "bench.sh: --only re-measures into an existing --out folder" >&2; exit 2; }
  keep() { local kept=() b; for b in "$@"; do [[ ",$only," == *",$b,"* ]] && kept+=("$b"); done; echo "${kept[@]:-}"; }
  read -r -a benchmarks <<< "$(keep "${benchmarks[@]}")"
  read -r -a sample_benchmarks <<< "$(keep "${sample_benchmarks[@]}")"
  [[ ",$only," == *",ablation,"* ]] || read -r -a ablation_benchmarks <<< "$(keep "${ablation_benchmarks[@]}")"
  [[ ",$only," == *",h2load,"* ]] || run_h2load_step=false
  [[ ",$only," == *",ghz,"* ]] || run_ghz_step=false
  [[ ",$only," == *",sweep,"* ]] || run_sweep_step=false
fi
if [ -n "$skip" ]; then
  for phase in ${skip//,/ }; do
    case "$phase" in
      ablation) ablation_benchmarks=() ;;
      h2load) run_h2load_step=false ;;
      ghz) run_ghz_step=false ;;
      sweep) run_sweep_step=false ;;
      *) echo "bench.sh: --skip takes ablation, h2load, ghz and sweep, not $phase" >&2; exit 2 ;;
    esac
  done
fi

jar_of() { echo "triple-benchmark/$1/target/$1-benchmarks.jar"; }
# The class of a contender's suite benchmarks: a bare method name would also pick up the other
# benchmarks of the jar with that method (Triple's getUser is in five classes).
suite_class_of() {
  case "$1" in
    triple) echo TripleBenchmark ;;
    grpc) echo GrpcBenchmark ;;
    dubbo) echo DubboBenchmark ;;
  esac
}
server_of() {
  case "$1" in
    triple|triple-direct) echo io.triplerpc.benchmark.triple.UserServer ;;
    grpc) echo io.triplerpc.benchmark.grpc.GrpcUserServer ;;
    dubbo) echo io.triplerpc.benchmark.dubbo.DubboUserServer ;;
    netty) echo io.triplerpc.benchmark.triple.MinimalGrpcServer ;;
  esac
}
path_of() {
  case "$1" in
    dubbo) echo /io.triplerpc.benchmark.dubbo.DubboUserService/getUser ;;
    *) echo /triple.benchmark.UserService/getUser ;;
  esac
}

if [ "$build" = true ]; then
  echo "== building (mvn -B -q install -DskipTests)"
  mvn -B -q install -DskipTests
fi
[ "$mode" = profile ] && contenders=("$profile_contender")
for c in "${contenders[@]}"; do
  [ -f "$(jar_of "$c")" ] || { echo "bench.sh: $(jar_of "$c") is missing; build first" >&2; exit 1; }
done

out="${out:-bench-results/$(date -u +%Y%m%d-%H%M%S)-$mode}"
mkdir -p "$out/raw" "$out/logs"
out="$(cd "$out" && pwd)"
if [ -n "$only" ]; then
  echo "rerun: $command_line at $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    >> "$out/machine.txt"
else
{
  echo "command: $command_line"
  echo "mode: $mode"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpus: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "threads: $threads"
} > "$out/machine.txt"
fi
cat "$out/machine.txt"

# One JMH run: contender, label for the results, benchmark, mode, round, then extra JMH arguments;
# extra JVM arguments for the benchmark JVM in $jvm_extra (JMH keeps only one -jvmArgsAppend).
jvm_extra=""
run_jmh() {
  local contender="$1" label="$2" bench="$3" bm="$4" round="$5"
  shift 5
  local t="$threads"
  [ "$bench" = getUserAsync ] && t=2
  local file="$out/raw/$bm-$bench-$label-r$round.json"
  echo "-- $bm $bench $label (round $round)"
  java -jar "$(jar_of "$contender")" "\\.$(suite_class_of "$contender")\\.$bench\$" -f 1 -t "$t" -bm "$bm" -tu "$( [ "$bm" = thrpt ] && echo s || echo ms )" \
    -jvmArgsAppend "-Xms1g -Xmx1g $jvm_extra" \
    -prof gc -prof io.triplerpc.benchmark.harness.ServerCpuProfiler -prof io.triplerpc.benchmark.harness.WriteStatsProfiler \
    -rf json -rff "$file" "$@" > "$out/logs/$bm-$bench-$label-r$round.log" 2>&1 \
    || { echo "   FAILED: see $out/logs/$bm-$bench-$label-r$round.log"; tail -5 "$out/logs/$bm-$bench-$label-r$round.log"; rm -f "$file"; }
}

start_server() {
  local name="$1" jar log
  local jvm_args=(-Xms512m -Xmx512m)
  case "$name" in
    netty) jar="$(jar_of triple)" ;;
    # Triple's server with services on the event loop (TripleServer.Builder.directExecutor()).
    triple-direct) jar="$(jar_of triple)"; jvm_args+=(-Dtriple.bench.executor=direct) ;;
    *) jar="$(jar_of "$name")" ;;
  esac
  log="$out/logs/server-$name.log"
  java "${jvm_args[@]}" -cp "$jar" "$(server_of "$name")" --port=0 > "$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 120); do
    server_port="$(awk '/^LISTENING / {print $2; exit}' "$log")"
    [ -n "$server_port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "bench.sh: server $name did not start; see $log" >&2
  return 1
}

stop_server() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}

ensure_h2load() {
  command -v h2load >/dev/null && return 0
  if command -v apt-get >/dev/null; then
    echo "== installing h2load (apt-get install nghttp2-client)"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get install -y -q nghttp2-client || { $sudo apt-get update -q && $sudo apt-get install -y -q nghttp2-client; }; } \
      > "$out/logs/apt-get.log" 2>&1 || true
  fi
  command -v h2load >/dev/null
}

# The streams in flight on h2load's one connection (-m): the server ceiling is measured at each.
h2load_streams=(32 100)
run_h2load() {
  local request="$out/raw/getUser-request.bin"
  # A framed GetUserRequest{id: 42}: no compression, length 2, field 1 varint 42.
  printf '\x00\x00\x00\x00\x02\x08\x2a' > "$request"
  local servers=(triple triple-direct grpc dubbo netty)
  for round in $(seq 1 "$rounds"); do
    for name in "${servers[@]}"; do
      # A re-run (--only h2load) replaces this round's figures, the older single-count name's too.
      rm -f "$out/raw/h2load-$name-r$round.txt" "$out/raw/h2load-$name-m"*"-r$round.txt"
      start_server "$name" || continue
      local url="http://127.0.0.1:$server_port$(path_of "$name")"
      # h2load counts HTTP 200 as success and ignores trailers: check grpc-status once first.
      local status
      status="$(curl -s --http2-prior-knowledge -X POST -H 'content-type: application/grpc' -H 'te: trailers' \
        --data-binary @"$request" -o /dev/null -D - "$url" | tr -d '\r' | awk -F': ' 'tolower($1)=="grpc-status" {print $2}')"
      if [ "$status" != 0 ]; then
        echo "-- h2load $name: grpc-status '$status', skipped"
        stop_server
        continue
      fi
      # One server for both stream counts, a warm-up at each count before its measured run.
      local streams file
      for streams in "${h2load_streams[@]}"; do
        file="$out/raw/h2load-$name-m$streams-r$round.txt"
        echo "-- h2load $name, $streams streams (round $round)"
        h2load -c 1 -t 1 -m "$streams" -D "$h2load_warmup" -d "$request" -H 'content-type: application/grpc' -H 'te: trailers' "$url" > /dev/null 2>&1 || true
        h2load -c 1 -t 1 -m "$streams" -D "$h2load_seconds" -d "$request" -H 'content-type: application/grpc' -H 'te: trailers' "$url" \
          > "$file" 2>&1 || true
        grep -E 'finished in' "$file" | sed 's/^/   /' || true
      done
      stop_server
    done
  done
}

ghz_version=v0.121.0
ensure_ghz() {
  ghz="$(command -v ghz || true)"
  if [ -z "$ghz" ] && [ -x "$HOME/go/bin/ghz" ]; then
    ghz="$HOME/go/bin/ghz"
  fi
  if [ -z "$ghz" ] && command -v go >/dev/null; then
    echo "== installing ghz (go install github.com/bojand/ghz/cmd/ghz@$ghz_version)"
    GOBIN="$HOME/go/bin" go install "github.com/bojand/ghz/cmd/ghz@$ghz_version" > "$out/logs/go-install-ghz.log" 2>&1 || true
    if [ -x "$HOME/go/bin/ghz" ]; then
      ghz="$HOME/go/bin/ghz"
    fi
  fi
  [ -n "$ghz" ]
}

# Open-loop latency of getUser with ghz (grpc-go, one connection). Per server: a closed-loop warm-up,
# then the closed-loop maximum (100 calls in flight, each worker waiting for its answer), then open
# loop at 25, 50, 75 and 125% of that maximum: with --async --rps ghz starts calls on a fixed
# schedule and never waits for answers, so a slow server faces a queue instead of a slower client.
# ghz times a call from its start in grpc-go (stream creation included: a call waiting for a stream
# slot or flow-control window counts) to its end; the JSON keeps every call's latency and status.
# --duration-stop wait: calls still in flight at the end complete and count (the drain shows at 125%).
# Then the same rates for every server: 25, 50 and 75% of grpc-java's maximum in the round (measured
# first). ghz's maximum is often ghz's own limit on these cores, not the server's, so "50% of each
# one's maximum" asks ghz for more calls against a faster server; equal rates compare the servers alone.
ghz_loads=(25 50 75 125)
ghz_same_loads=(25 50 75)
# One open-loop run of run_ghz's current server (its run, target, log, name and round): load label, rate, words.
ghz_open_loop() {
  local label="$1" rate="$2" words="$3" p99
  local file="$out/raw/ghz-$name-$label-r$round.json"
  "${run[@]}" --async --rps "$rate" -c 4 -z "${ghz_seconds}s" -o "$file" "$target" >> "$log" 2>&1 || true
  if [ ! -s "$file" ]; then
    echo "   open loop at $words, $rate calls/s: FAILED (see $log)"
    rm -f "$file"
    return 0
  fi
  p99="$(grep -o '"percentage":99,"latency":[0-9]*' "$file" | cut -d: -f3)"
  echo "   open loop at $words, $rate calls/s: p99 $(awk -v ns="${p99:-0}" 'BEGIN {printf "%.2f", ns / 1e6}') ms"
  gzip -f "$file"
}

run_ghz() {
  local proto_dir="$root/triple-benchmark/workload/src/main/proto"
  # Dubbo serves the same messages under its Java interface's name: a service of its own for ghz.
  local dubbo_proto="$out/logs/dubbo_user_service.proto"
  cat > "$dubbo_proto" <<'PROTO'
syntax = "proto3";
package io.triplerpc.benchmark.dubbo;
import "user_service.proto";
service DubboUserService {
  rpc getUser(triple.benchmark.GetUserRequest) returns (triple.benchmark.User);
}
PROTO
  local servers=(grpc triple dubbo)
  for round in $(seq 1 "$rounds"); do
    local reference_max=""
    for name in "${servers[@]}"; do
      start_server "$name" || continue
      local call=(--proto "$proto_dir/user_service.proto" --call triple.benchmark.UserService.getUser)
      [ "$name" = dubbo ] && call=(--proto "$dubbo_proto" --call io.triplerpc.benchmark.dubbo.DubboUserService.getUser)
      local run=("$ghz" --insecure --import-paths "$proto_dir" "${call[@]}" -d '{"id":42}' --connections 1
        --duration-stop wait -O json)
      local target="127.0.0.1:$server_port" log="$out/logs/ghz-$name-r$round.log"
      local file="$out/raw/ghz-$name-max-r$round.json"
      rm -f "$out/raw/ghz-$name-"*"-r$round.json"*
      echo "-- ghz $name (round $round)"
      "${run[@]}" -c 100 -z "${ghz_warmup}s" -o /dev/null "$target" > "$log" 2>&1 || true
      "${run[@]}" -c 100 -z "${ghz_seconds}s" -o "$file" "$target" >> "$log" 2>&1 || true
      # The report reads the JSON; here only the rate (the last "rps", after the options) and the OK count.
      local max ok
      max="$(grep -o '"rps":[0-9.]*' "$file" 2>/dev/null | tail -1 | cut -d: -f2 | cut -d. -f1)"
      ok="$(grep -o '"statusCodeDistribution":{[^}]*' "$file" 2>/dev/null | grep -o '"OK":[0-9]*' | cut -d: -f2)"
      if [ -z "$max" ] || [ -z "$ok" ] || [ "$max" -lt 4 ]; then
        echo "   no getUser answered OK at $target; skipped (see $log)"
        rm -f "$file"
        stop_server
        continue
      fi
      echo "   closed loop, 100 in flight: $max calls/s"
      gzip -f "$file"
      [ "$name" = grpc ] && reference_max="$max"
      local load rate
      for load in "${ghz_loads[@]}"; do
        rate=$(( (max * load + 50) / 100 ))
        ghz_open_loop "$load" "$rate" "$load% of its maximum"
      done
      if [ -n "$reference_max" ]; then
        for load in "${ghz_same_loads[@]}"; do
          rate=$(( (reference_max * load + 50) / 100 ))
          ghz_open_loop "same$load" "$rate" "$load% of grpc-java's maximum"
        done
      fi
      stop_server
    done
  done
}

# Curves, not points: SweepBenchmark.echo (a unary call carrying payload bytes each way) against one
# parameter at a time around a base point ($threads client threads, 10 B, one connection): JMH's
# client threads; the payload; the connections (that many clients, each with a connection of its own
# to the one server, the threads spread over them). JMH sample mode gives the percentiles and, by
# Little's law (a closed loop: threads / mean latency), the throughput from one run. Contenders are
# interleaved at each point. The base point is measured once per round and contender, as the threads
# curve's point at $threads (added to that curve when not in it); the report finds it, by its JMH
# params, for the payload and connections curves too. Default --threads: 6 + 4 + 2 = 12 runs.
read -r -a sweep_threads <<< "$(printf '%s\n' 1 4 16 64 256 "$threads" | sort -n -u | tr '\n' ' ')"
sweep_payloads=(10 1024 10240 102400 1048576)
sweep_connections=(1 4 16)
sweep_base_payload=10
sweep_base_connections=1
run_sweep_point() {
  local contender="$1" dimension="$2" value="$3" t="$4" payload="$5" connections="$6" round="$7"
  local name="sweep-$dimension-$value-$contender-r$round"
  local file="$out/raw/$name.json"
  echo "-- sweep $dimension $value $contender (round $round)"
  java -jar "$(jar_of "$contender")" "\\.echo\$" -f 1 -t "$t" -bm sample -tu us \
    -p payload="$payload" -p connections="$connections" -jvmArgsAppend "-Xms1g -Xmx1g" \
    -rf json -rff "$file" "${sweep_opts[@]}" > "$out/logs/$name.log" 2>&1 \
    || { echo "   FAILED: see $out/logs/$name.log"; tail -5 "$out/logs/$name.log"; rm -f "$file"; }
}

run_sweep() {
  local round dimension value values c t payload connections
  for round in $(seq 1 "$rounds"); do
    # A re-run (--only sweep) replaces this round's curves, points of another --threads included.
    rm -f "$out/raw/sweep-"*"-r$round.json"
    for dimension in threads payload connections; do
      case "$dimension" in
        threads) values=("${sweep_threads[@]}") ;;
        payload) values=("${sweep_payloads[@]}") ;;
        connections) values=("${sweep_connections[@]}") ;;
      esac
      for value in "${values[@]}"; do
        t="$threads"
        payload="$sweep_base_payload"
        connections="$sweep_base_connections"
        case "$dimension" in
          threads) t="$value" ;;
          payload) payload="$value" ;;
          connections) connections="$value" ;;
        esac
        # The base point: measured under threads only.
        if [ "$dimension" != threads ] && [ "$t" = "$threads" ] && [ "$payload" = "$sweep_base_payload" ] \
          && [ "$connections" = "$sweep_base_connections" ]; then
          continue
        fi
        for c in "${contenders[@]}"; do
          run_sweep_point "$c" "$dimension" "$value" "$t" "$payload" "$connections" "$round"
        done
      done
    done
  done
}

report() {
  local args=("$out")
  [ "$docs" = true ] && args+=(--docs "$root/docs")
  java -jar triple-benchmark/report/target/bench-report.jar "${args[@]}"
}

if [ "$mode" = profile ]; then
  ap_version=4.6
  conv_version=4.5
  ap_dir="$root/triple-benchmark/target/async-profiler-$ap_version"
  if [ ! -f "$ap_dir/libasyncProfiler.so" ] || [ ! -f "$ap_dir/jfr-converter-$conv_version.jar" ]; then
    mkdir -p "$ap_dir"
    mvn -B -q dependency:copy -Dartifact="tools.profiler:async-profiler:$ap_version" -DoutputDirectory="$ap_dir"
    mvn -B -q dependency:copy -Dartifact="tools.profiler:jfr-converter:$conv_version" -DoutputDirectory="$ap_dir"
    (cd "$ap_dir" && unzip -o -q -j "async-profiler-$ap_version.jar" 'linux-x64/libasyncProfiler.so')
  fi
  lib="$ap_dir/libasyncProfiler.so"
  # perf_events is often closed in containers (perf_event_paranoid > 1); itimer works everywhere.
  event=cpu
  [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)" -le 1 ] || event=itimer
  mkdir -p "$out/profile"
  echo "== profiling $profile ($profile_contender), event $event"
  jvm_extra="-Dbench.server.jvmArgs=-agentpath:$lib=start,event=$event,interval=1ms,jfr,file=$out/profile/server.jfr"
  run_jmh "$profile_contender" "$profile_contender" "$profile" thrpt 1 -wi 2 -w 5s -i 2 -r 10s \
    -prof "async:libPath=$lib;event=$event;output=jfr;dir=$out/profile/client"
  jvm_extra=""
  while IFS= read -r jfr; do
    side=client
    [ "$jfr" = "$out/profile/server.jfr" ] && side=server
    java -jar "$ap_dir/jfr-converter-$conv_version.jar" -o html --cpu "$jfr" "$out/profile/$side-flamegraph.html" >/dev/null </dev/null
    java -jar "$ap_dir/jfr-converter-$conv_version.jar" -o collapsed --cpu "$jfr" "$out/profile/$side.collapsed" >/dev/null </dev/null
    echo "   $out/profile/$side-flamegraph.html; hottest frames (self time):"
    awk '{n=$NF; $NF=""; k=split($0, f, ";"); sub(/ +$/, "", f[k]); self[f[k]]+=n; total+=n}
         END {for (m in self) printf "%6.2f%%  %s\n", 100*self[m]/total, m}' "$out/profile/$side.collapsed" \
      | sort -rn | head -15 | sed 's/^/     /' || true
  done < <(find "$out/profile" -name '*.jfr')
  exit 0
fi

echo "== JMH: ${#benchmarks[@]} benchmarks x ${#contenders[@]} contenders, $rounds round(s), interleaved"
for round in $(seq 1 "$rounds"); do
  for bench in "${benchmarks[@]}"; do
    for c in "${contenders[@]}"; do
      run_jmh "$c" "$c" "$bench" thrpt "$round" "${thrpt_opts[@]}"
    done
    if [[ " ${sample_benchmarks[*]} " == *" $bench "* ]]; then
      for c in "${contenders[@]}"; do
        run_jmh "$c" "$c" "$bench" sample "$round" "${sample_opts[@]}"
      done
    fi
  done
  [ ${#ablation_benchmarks[@]} -gt 0 ] && echo "== ablations (round $round)"
  for bench in "${ablation_benchmarks[@]}"; do
    # All on again, right before the ablations: the machine's speed drifts over a long run.
    run_jmh triple "triple-allOn" "$bench" thrpt "$round" "${thrpt_opts[@]}"
    for a in "${ablations[@]}"; do
      jvm_extra="-Dio.triplerpc.ablation.$a=true"
      run_jmh triple "triple-$a" "$bench" thrpt "$round" "${thrpt_opts[@]}"
      jvm_extra=""
    done
  done
done

h2load_counts="${h2load_streams[*]}"
echo "== h2load: one connection, ${h2load_counts// / and } streams"
if [ "$run_h2load_step" = false ]; then
  echo "   (not re-measured)"
elif ensure_h2load; then
  run_h2load
else
  echo "bench.sh: h2load not available; skipping the server ceiling" | tee "$out/logs/h2load-missing.txt"
fi

echo "== ghz: open loop, getUser at 25, 50, 75 and 125% of each server's closed-loop maximum, then at 25, 50 and 75% of grpc-java's for every server"
if [ "$run_ghz_step" = false ]; then
  echo "   (not re-measured)"
elif ensure_ghz; then
  run_ghz
else
  echo "bench.sh: ghz not available (nor Go to install it); skipping the open-loop latency" | tee "$out/logs/ghz-missing.txt"
fi

echo "== sweeps: echo against client threads (${sweep_threads[*]}), payload (${sweep_payloads[*]} B) and connections (${sweep_connections[*]}), interleaved"
if [ "$run_sweep_step" = false ]; then
  echo "   (not re-measured)"
else
  run_sweep
fi

echo "== report"
report
echo "results: $out"
