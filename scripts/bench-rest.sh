#!/usr/bin/env bash
# The REST benchmark (issue 38): a GET of a small resource and a POST with a small JSON body, over HTTP/1.1 with
# keep-alive, loaded by h2load --h1, against
#   triple            Triple's own REST (google.api.http rules served by a Triple server),
#   triple-annotated  Triple serving the annotated Java interfaces Dubbo serves (JAX-RS and Spring Web, from
#                     triple-dubbo-interop/api), with the same implementation classes,
#   dubbo             Apache Dubbo 3.3.6's REST (the interop peer with --rest) serving those same interfaces,
#   gateway-grpc      grpc-gateway v2 (Go, generated from the same .proto) in front of a grpc-java server,
#   gateway-triple    the same grpc-gateway in front of Triple's gRPC: what the gateway's hop costs by itself,
# in one run, with 1 and 16 connections. triple and the gateways serve user_rest_service.proto's rules
# (GET /v1/users/42, POST /v1/users); triple-annotated and dubbo serve ItemResource (GET /items/apple?quantity=3
# with an X-Price header, POST /items/new with a three-field JSON item): Triple is compared with Dubbo on the
# annotated interface, with grpc-gateway on the .proto. Each server and each gateway is a process of its own;
# the machine's cores are not pinned (there is nothing to pin to here), so all of them and h2load share them.
#
#   scripts/bench-rest.sh                 3 rounds, 10 s warm-up and 10 s measured per run (about 17 minutes)
#   scripts/bench-rest.sh --quick         1 round, 3 s warm-up, 5 s measured (about 2 minutes; do not publish)
#   options: --out DIR (default bench-results/<date>-rest), --rounds N, --seconds S (measured), --warmup S,
#            --connections LIST (default 1,16),
#            --contenders LIST (default triple,triple-annotated,dubbo,gateway-grpc,gateway-triple),
#            --no-build (use the jars, the Dubbo peer and the gateway already built), --docs (also rewrite the
#            REST section of docs/benchmarks.md and its charts in docs/images), --h2 (HTTP/2 over cleartext with
#            prior knowledge instead of HTTP/1.1: h2load without --h1; triple, triple-annotated and dubbo only,
#            the gateway serves HTTP/1.1; default out bench-results/<date>-rest-h2)
#
# Per round every server starts afresh, is checked once with curl (status and JSON), is warmed up (GET and
# POST at 16 connections, not measured), and then each case (request x connections) is run for every
# contender back to back, in the round's order: as listed in odd rounds, reversed in even ones, so neither
# the machine's slow spells nor going first favour one. Every h2load run has its own --warm-up-time before
# the measured --duration, and --log-file gives every request's time, from which the report takes p50 to
# p99.9 (h2load itself prints min, max, mean and sd only). The report (java -cp bench-report.jar
# io.triplerpc.benchmark.report.RestReport DIR) writes summary.csv (every run), summary.json and summary.md
# (medians over the rounds, ratios) and the PNG charts. machine.txt has the load average before and after
# every round.
set -euo pipefail
command_line="scripts/bench-rest.sh $*"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

mode=full
out=""
build=true
docs=false
http=h1
rounds=""
seconds=""
warmup=""
connections="1,16"
contenders="triple,triple-annotated,dubbo,gateway-grpc,gateway-triple"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) mode=quick ;;
    --out) out="$2"; shift ;;
    --out=*) out="${1#--out=}" ;;
    --rounds) rounds="$2"; shift ;;
    --rounds=*) rounds="${1#--rounds=}" ;;
    --seconds) seconds="$2"; shift ;;
    --seconds=*) seconds="${1#--seconds=}" ;;
    --warmup) warmup="$2"; shift ;;
    --warmup=*) warmup="${1#--warmup=}" ;;
    --connections) connections="$2"; shift ;;
    --connections=*) connections="${1#--connections=}" ;;
    --contenders) contenders="$2"; shift ;;
    --contenders=*) contenders="${1#--contenders=}" ;;
    --no-build) build=false ;;
    --docs) docs=true ;;
    --h2) http=h2 ;;
    -h|--help) sed -n '2,34p' "$0"; exit 0 ;;
    *) echo "bench-rest.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ "$mode" = quick ]; then
  rounds="${rounds:-1}"; seconds="${seconds:-5}"; warmup="${warmup:-3}"
else
  rounds="${rounds:-3}"; seconds="${seconds:-10}"; warmup="${warmup:-10}"
fi
read -r -a connection_counts <<< "${connections//,/ }"
read -r -a contender_list <<< "${contenders//,/ }"
for c in "${contender_list[@]}"; do
  case "$c" in
    triple|triple-annotated|dubbo|gateway-grpc|gateway-triple) ;;
    *) echo "bench-rest.sh: contenders are triple, triple-annotated, dubbo, gateway-grpc and gateway-triple, not $c" >&2
       exit 2 ;;
  esac
done
if [ "$http" = h2 ]; then
  for c in "${contender_list[@]}"; do
    case "$c" in
      triple|triple-annotated|dubbo) ;;
      *) echo "bench-rest.sh: --h2 takes triple, triple-annotated and dubbo, not $c (the gateway serves HTTP/1.1)" >&2
         exit 2 ;;
    esac
  done
fi
requests=(get post)

triple_jar=triple-benchmark/triple/target/triple-benchmarks.jar
grpc_jar=triple-benchmark/grpc/target/grpc-benchmarks.jar
report_jar=triple-benchmark/report/target/bench-report.jar
# The Dubbo peer as DubboProcess (triple-dubbo-interop/tests) starts it: its classes, the api module's and
# Dubbo's runtime class path, which its build copies to target/lib.
dubbo_peer=triple-dubbo-interop/peer/target
dubbo_api=triple-dubbo-interop/api/target/classes
if [ "$build" = true ]; then
  echo "== building the benchmark jars and the Dubbo peer (mvn -B -q package -DskipTests)"
  mvn -B -q -pl triple-benchmark/triple,triple-benchmark/grpc,triple-benchmark/report,triple-dubbo-interop/peer -am \
    package -DskipTests
fi
for jar in "$triple_jar" "$grpc_jar" "$report_jar"; do
  [ -f "$jar" ] || { echo "bench-rest.sh: $jar is missing; build first (without --no-build)" >&2; exit 1; }
done
if [[ " ${contender_list[*]} " == *" dubbo "* ]]; then
  for dir in "$dubbo_peer/classes" "$dubbo_peer/lib" "$dubbo_api"; do
    [ -d "$dir" ] || { echo "bench-rest.sh: $dir is missing; build first (without --no-build)" >&2; exit 1; }
  done
fi

out="${out:-bench-results/$(date -u +%Y-%m-%d)-rest$([ "$http" = h2 ] && echo -h2)}"
mkdir -p "$out/raw" "$out/logs"
out="$(cd "$out" && pwd)"
rm -f "$out/raw/h2load-"* "$out/raw/order-"*

# grpc-gateway, built from triple-benchmark/gateway (its go.mod pins the versions of the REST parity test's
# gateway) and Go code generated from the workload's user_rest_service.proto, as the parity test builds its
# own: go build tool (protoc-gen-go, -go-grpc, -grpc-gateway at go.mod's versions), then the protoc of the
# Maven build over the .proto files that the Triple benchmark jar carries, then go build. Kept under
# triple-benchmark/gateway/target/<hash of the inputs>/, so it is built again only when an input changes.
gateway_sources="$root/triple-benchmark/gateway"
proto_dir="$root/triple-benchmark/workload/src/main/proto"
build_gateway() {
  command -v go > /dev/null || { echo "bench-rest.sh: Go is needed to build grpc-gateway" >&2; return 1; }
  local hash dir
  hash="$(cat "$gateway_sources/go.mod" "$gateway_sources/go.sum" "$gateway_sources/main.go" \
    "$proto_dir/user_service.proto" "$proto_dir/user_rest_service.proto" | sha256sum | cut -c1-16)"
  dir="$gateway_sources/target/$hash"
  gateway="$dir/gateway"
  [ -x "$gateway" ] && return 0
  echo "== building grpc-gateway into $dir (log: $dir/build.log)"
  rm -rf "$dir"
  mkdir -p "$dir/src" "$dir/include" "$dir/bin"
  cp "$gateway_sources/go.mod" "$gateway_sources/go.sum" "$gateway_sources/main.go" "$dir/src/"
  (cd "$dir/include" && unzip -q -o "$root/$triple_jar" 'google/api/*.proto' 'google/protobuf/*.proto')
  cp "$proto_dir/user_service.proto" "$proto_dir/user_rest_service.proto" "$dir/include/"
  local version arch module=github.com/triplerpc/triple/benchmark/gateway
  version="$(sed -n 's:.*<protobuf.version>\(.*\)</protobuf.version>.*:\1:p' pom.xml | head -1)"
  case "$(uname -m)" in
    aarch64|arm64) arch=linux-aarch_64 ;;
    *) arch=linux-x86_64 ;;
  esac
  (
    set -e
    mvn -B -q dependency:copy -Dartifact="com.google.protobuf:protoc:$version:exe:$arch" -DoutputDirectory="$dir" \
      -Dmdep.stripVersion=true
    mv "$dir/protoc-$arch.exe" "$dir/protoc"
    chmod +x "$dir/protoc"
    cd "$dir/src"
    export GOFLAGS=-buildvcs=false GOWORK=off
    go build -o "$dir/bin/" tool
    "$dir/protoc" -I "$dir/include" \
      --plugin=protoc-gen-go="$dir/bin/protoc-gen-go" \
      --plugin=protoc-gen-go-grpc="$dir/bin/protoc-gen-go-grpc" \
      --plugin=protoc-gen-grpc-gateway="$dir/bin/protoc-gen-grpc-gateway" \
      --go_out=. --go_opt=module="$module" \
      --go-grpc_out=. --go-grpc_opt=module="$module" \
      --grpc-gateway_out=. --grpc-gateway_opt=module="$module" \
      user_service.proto user_rest_service.proto
    go build -o "$dir/gateway.partial" .
    mv "$dir/gateway.partial" "$gateway"
  ) > "$dir/build.log" 2>&1 || { echo "bench-rest.sh: building grpc-gateway failed:" >&2; tail -20 "$dir/build.log" >&2; return 1; }
}

ensure_h2load() {
  command -v h2load > /dev/null && return 0
  if command -v apt-get > /dev/null; then
    echo "== installing h2load (apt-get install nghttp2-client)"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    { $sudo apt-get install -y -q nghttp2-client || { $sudo apt-get update -q && $sudo apt-get install -y -q nghttp2-client; }; } \
      > "$out/logs/apt-get.log" 2>&1 || true
  fi
  command -v h2load > /dev/null
}

ensure_h2load || { echo "bench-rest.sh: h2load is needed (apt-get install nghttp2-client)" >&2; exit 1; }
gateway=""
if [[ " ${contender_list[*]} " == *" gateway-"* ]]; then
  build_gateway
fi

{
  echo "command: $command_line"
  echo "mode: $mode"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpus: $(nproc) (not pinned: servers, gateways and h2load share them)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel: $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "go: $(go version 2>/dev/null || echo none)"
  echo "h2load: $(h2load --version 2>&1 | head -1)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "rounds: $rounds, warm-up ${warmup}s, measured ${seconds}s, connections ${connection_counts[*]}"
  if [ "$http" = h2 ]; then
    echo "protocol: HTTP/2 over cleartext, prior knowledge (h2load -m 1: one request at a time per connection)"
  else
    echo "protocol: HTTP/1.1 with keep-alive (h2load --h1)"
  fi
  echo "contenders: ${contender_list[*]}"
} > "$out/machine.txt"
cat "$out/machine.txt"

# Processes of the round: pids to stop at its end, ports by contender.
pids=()
declare -A port
stop_all() {
  local pid
  for pid in "${pids[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2> /dev/null || true
  done
  for pid in "${pids[@]:-}"; do
    [ -n "$pid" ] && wait "$pid" 2> /dev/null || true
  done
  pids=()
}
trap 'stop_all; rm -rf "$fifo_dir"' EXIT

# The Dubbo peer exits when its standard input ends: it reads a FIFO that it holds open itself (read-write), so
# its input never ends while it runs; it is stopped like the others, by its pid.
fifo_dir="$(mktemp -d)"
mkfifo "$fifo_dir/stdin"

# Starts a process whose log says "LISTENING <port>" (or the Dubbo peer's "READY <port>") once it serves; sets
# started_port. The standard input is /dev/null, or the FIFO above when start_stdin=fifo.
start_stdin=""
start() {
  local log="$1"
  shift
  : > "$log"
  if [ "$start_stdin" = fifo ]; then
    "$@" > "$log" 2>&1 0<> "$fifo_dir/stdin" &
  else
    "$@" > "$log" 2>&1 < /dev/null &
  fi
  local pid=$!
  pids+=("$pid")
  for _ in $(seq 1 120); do
    started_port="$(awk '/^(LISTENING|READY) / {print $2; exit}' "$log" 2> /dev/null || true)"
    [ -n "$started_port" ] && return 0
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.5
  done
  echo "bench-rest.sh: $* did not start; see $log" >&2
  return 1
}

start_contender() {
  local name="$1" round="$2" backend
  case "$name" in
    triple)
      start "$out/logs/triple-r$round.log" java -Xms512m -Xmx512m -cp "$triple_jar" \
        io.triplerpc.benchmark.triple.UserRestServer --port=0
      port[$name]="$started_port" ;;
    triple-annotated)
      start "$out/logs/triple-annotated-r$round.log" java -Xms512m -Xmx512m -cp "$triple_jar" \
        io.triplerpc.benchmark.triple.AnnotatedRestServer --port=0
      port[$name]="$started_port" ;;
    dubbo)
      # DubboProcess's command line, with the JVM options of the other servers instead of its test ones
      # (-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC): Dubbo runs with the JIT and GC Triple gets.
      start_stdin=fifo
      start "$out/logs/dubbo-r$round.log" java -Xms512m -Xmx512m \
        -Ddubbo.network.interface.ignored='.*' -Ddubbo.json-framework.prefer=fastjson2 \
        -cp "$dubbo_peer/classes:$dubbo_api:$dubbo_peer/lib/*" \
        io.triplerpc.interop.dubbo.peer.DubboPeer provider --rest
      start_stdin=""
      port[$name]="$started_port" ;;
    gateway-grpc)
      start "$out/logs/grpc-java-r$round.log" java -Xms512m -Xmx512m -cp "$grpc_jar" \
        io.triplerpc.benchmark.grpc.GrpcUserRestServer --port=0
      backend="$started_port"
      start "$out/logs/gateway-grpc-r$round.log" "$gateway" -grpc "127.0.0.1:$backend" -listen 127.0.0.1:0
      port[$name]="$started_port" ;;
    gateway-triple)
      start "$out/logs/triple-grpc-r$round.log" java -Xms512m -Xmx512m -cp "$triple_jar" \
        io.triplerpc.benchmark.triple.UserRestServer --port=0
      backend="$started_port"
      start "$out/logs/gateway-triple-r$round.log" "$gateway" -grpc "127.0.0.1:$backend" -listen 127.0.0.1:0
      port[$name]="$started_port" ;;
  esac
}

# The requests. On the .proto (triple, gateway-*): GET of user 42 (a ~250-byte JSON User), POST of a new user
# with four fields. On the annotated interface (triple-annotated, dubbo: ItemResource): GET of item apple with a
# query value and a header (answers {"name":"apple","quantity":3,"price":1.50}), POST of a three-field item
# (answers it with its quantity doubled, ItemResource's default times).
post_body="$out/raw/post-body.json"
printf '%s' '{"id":"42","name":"Doug Lea","email":"dev@triplerpc.io","mobile":"18612345678"}' > "$post_body"
item_body="$out/raw/post-body-item.json"
printf '%s' '{"name":"pear","quantity":2,"price":0.75}' > "$item_body"
annotated() {
  [ "$1" = triple-annotated ] || [ "$1" = dubbo ]
}
url_of() {
  if annotated "$1"; then
    case "$2" in
      get) echo "http://127.0.0.1:${port[$1]}/items/apple?quantity=3" ;;
      post) echo "http://127.0.0.1:${port[$1]}/items/new" ;;
    esac
  else
    case "$2" in
      get) echo "http://127.0.0.1:${port[$1]}/v1/users/42" ;;
      post) echo "http://127.0.0.1:${port[$1]}/v1/users" ;;
    esac
  fi
}
body_of() {
  if annotated "$1"; then echo "$item_body"; else echo "$post_body"; fi
}
# The request's headers, as h2load's and curl's -H arguments.
headers_of() {
  headers=()
  if [ "$2" = post ]; then
    headers+=(-H 'content-type: application/json')
  elif annotated "$1"; then
    headers+=(-H 'x-price: 1.50')
  fi
}
# One h2load run: contender, request, connections, then h2load's options for the time (warm-up, duration).
# -N: a connection silent for 5 s is closed and its request counted as timed out, so that a server that stops
# answering on a connection fails the run (left out of the medians and said so) instead of posting the rate of
# the requests before it stopped; no answer of a working server here takes a tenth of that.
h2load_run() {
  local name="$1" request="$2" c="$3"
  shift 3
  local args=(-c "$c" -t 1 -m 1 -N 5s "$@")
  [ "$http" = h1 ] && args=(--h1 "${args[@]}")
  headers_of "$name" "$request"
  args+=("${headers[@]}")
  [ "$request" = post ] && args+=(-d "$(body_of "$name")")
  h2load "${args[@]}" "$(url_of "$name" "$request")"
}

# Checks a contender's answers once (h2load counts statuses, not bodies): GET and POST must be 200 with the
# expected JSON. The bodies are kept in raw/ (their sizes differ a little from server to server); Triple's and
# Dubbo's answers on the annotated interface are compared as JSON values once both are in (same_answers).
check() {
  local name="$1" round="$2" request file status
  for request in "${requests[@]}"; do
    file="$out/raw/answer-$name-$request.json"
    headers_of "$name" "$request"
    local curl_args=(-s -o "$file" -w '%{http_code}' "${headers[@]}")
    [ "$http" = h2 ] && curl_args+=(--http2-prior-knowledge)
    if [ "$request" = get ]; then
      status="$(curl "${curl_args[@]}" "$(url_of "$name" get)")"
    else
      status="$(curl "${curl_args[@]}" --data-binary @"$(body_of "$name")" "$(url_of "$name" post)")"
    fi
    if annotated "$name" && [ "$request" = get ]; then
      grep -q '"name":\s*"apple"' "$file" && grep -q '"quantity":\s*3\b' "$file" \
        && grep -q '"price":\s*1\.50\?\b' "$file" || status="unexpected body"
    elif annotated "$name"; then
      grep -q '"name":\s*"pear"' "$file" && grep -q '"quantity":\s*4\b' "$file" || status="unexpected body"
    elif [ "$request" = get ]; then
      grep -q '"id":\s*"42"' "$file" && grep -q '"name":\s*"Doug Lea"' "$file" || status="unexpected body"
    else
      grep -q '"created":\s*true' "$file" || status="unexpected body"
    fi
    if [ "$status" != 200 ]; then
      echo "bench-rest.sh: $name answered $request with $status: $(head -c 300 "$file")" >&2
      return 1
    fi
  done
}

# Triple and Dubbo on the annotated interface must answer the same JSON, as values: jq sorts the members, and
# numbers go through arithmetic so that 1.50 and 1.5 are one value (jq 1.7 otherwise keeps the literal).
same_answers() {
  local request a b canonical='walk(if type == "number" then . + 0 else . end)'
  [ -f "$out/raw/answer-triple-annotated-get.json" ] && [ -f "$out/raw/answer-dubbo-get.json" ] || return 0
  command -v jq > /dev/null || { echo "   (jq is missing: Triple's and Dubbo's answers not compared)"; return 0; }
  for request in "${requests[@]}"; do
    a="$(jq -cS "$canonical" "$out/raw/answer-triple-annotated-$request.json")"
    b="$(jq -cS "$canonical" "$out/raw/answer-dubbo-$request.json")"
    if [ "$a" != "$b" ]; then
      echo "bench-rest.sh: Triple and Dubbo answer $request differently: $a against $b" >&2
      return 1
    fi
  done
}

rm -f "$out/raw/answer-"*
for round in $(seq 1 "$rounds"); do
  echo "load before round $round: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
  order=("${contender_list[@]}")
  if [ $((round % 2)) = 0 ]; then
    order=()
    for ((i = ${#contender_list[@]} - 1; i >= 0; i--)); do order+=("${contender_list[i]}"); done
  fi
  echo "== round $round of $rounds: ${order[*]}"
  echo "${order[*]}" > "$out/raw/order-r$round.txt"
  for name in "${order[@]}"; do
    start_contender "$name" "$round"
    check "$name" "$round"
  done
  same_answers
  # The JIT's warm-up of every process: both requests at 16 connections, not measured.
  for name in "${order[@]}"; do
    for request in "${requests[@]}"; do
      h2load_run "$name" "$request" 16 -D "$warmup" > /dev/null 2>&1 || true
    done
  done
  for request in "${requests[@]}"; do
    for c in "${connection_counts[@]}"; do
      for name in "${order[@]}"; do
        base="$out/raw/h2load-$name-$request-c$c-r$round"
        h2load_run "$name" "$request" "$c" --warm-up-time="${warmup}s" -D "$seconds" --log-file="$base.log" \
          > "$base.txt" 2>&1 || echo "   h2load failed: see $base.txt"
        gzip -f "$base.log" 2> /dev/null || true
        printf '   %-15s %-4s %2s connections: %s\n' "$name" "$request" "$c" \
          "$(grep -m1 'finished in' "$base.txt" | sed 's/^finished in //' || echo '?')"
      done
    done
  done
  stop_all
  echo "load after round $round: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

echo "== report"
report_args=("$out")
[ "$docs" = true ] && report_args+=(--docs "$root/docs")
java -cp "$report_jar" io.triplerpc.benchmark.report.RestReport "${report_args[@]}"
echo "results: $out"
