#!/usr/bin/env bash
# Issue 39's lossy link: Triple over HTTP/3 against Triple over HTTP/2 and grpc-java over HTTP/2 (all with TLS),
# 32 callers of getUser and one 8 MiB echo at the same time on one connection, at a round trip of twice --delay
# and each --loss. The client runs in one network namespace, the server in another, and between them a relay
# (triple-benchmark/netem, Go) delays every IP packet and drops a share of them at random, as the kernel's netem
# would (this machine's kernel has none). Needs root (namespaces, TUN devices), Go, and Java 17.
#
#   scripts/bench-loss.sh [--out DIR] [--delay 10ms] [--loss "0 0.005 0.02"] [--iterations 3] [--time 20s]
#                         [--only triple|grpc] [--no-build]
#
# Writes DIR/<contender>-loss<loss>.json (JMH, SampleTime) and prints the table docs/benchmarks.md quotes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/bench-results/loss-$(date +%Y-%m-%d-%H%M)"
delay=10ms
losses="0 0.005 0.02"
iterations=3
time=20s
only=""
build=true
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift ;;
    --delay) delay="$2"; shift ;;
    --loss) losses="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    --time) time="$2"; shift ;;
    --only) only="$2"; shift ;;
    --no-build) build=false ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "bench-loss.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ "$(id -u)" -ne 0 ]; then
  echo "bench-loss.sh: needs root, for network namespaces and TUN devices" >&2
  exit 1
fi
mkdir -p "$out"
relay="$root/triple-benchmark/netem/target/netem"
if $build; then
  (cd "$root" && mvn -B -q -pl triple-benchmark/triple,triple-benchmark/grpc -am -DskipTests package)
fi
if $build || [ ! -x "$relay" ]; then
  (cd "$root/triple-benchmark/netem" && mkdir -p target && go build -o target/netem .)
fi

client_ns=triple-loss-client
server_ns=triple-loss-server
client_ip=10.77.0.1
server_ip=10.77.0.2
relay_pid=""

teardown() {
  if [ -n "$relay_pid" ]; then
    kill "$relay_pid" 2>/dev/null || true
    wait "$relay_pid" 2>/dev/null || true
    relay_pid=""
  fi
  # A run that failed may leave its server (or JMH's fork) behind: nothing of a run outlives its link.
  for ns in "$client_ns" "$server_ns"; do
    pids="$(ip netns pids "$ns" 2>/dev/null || true)"
    if [ -n "$pids" ]; then kill $pids 2>/dev/null || true; fi
  done
  ip netns del "$client_ns" 2>/dev/null || true
  ip netns del "$server_ns" 2>/dev/null || true
  ip tuntap del dev netemA mode tun 2>/dev/null || true
  ip tuntap del dev netemB mode tun 2>/dev/null || true
}
trap teardown EXIT

# The link for one loss: the relay attaches to both TUN devices, which then move into the namespaces.
setup() {
  teardown
  ip tuntap add dev netemA mode tun
  ip tuntap add dev netemB mode tun
  "$relay" -a netemA -b netemB -delay "$delay" -loss "$1" > "$out/relay-loss$1.log" 2>&1 &
  relay_pid=$!
  for _ in $(seq 50); do grep -q READY "$out/relay-loss$1.log" && break; sleep 0.1; done
  grep -q READY "$out/relay-loss$1.log" || { echo "bench-loss.sh: the relay did not start" >&2; exit 1; }
  ip netns add "$client_ns"
  ip netns add "$server_ns"
  ip link set netemA netns "$client_ns"
  ip link set netemB netns "$server_ns"
  ip -n "$client_ns" link set lo up
  ip -n "$server_ns" link set lo up
  ip -n "$client_ns" addr add "$client_ip/32" dev netemA
  ip -n "$server_ns" addr add "$server_ip/32" dev netemB
  ip -n "$client_ns" link set netemA up
  ip -n "$server_ns" link set netemB up
  ip -n "$client_ns" route add "$server_ip/32" dev netemA
  ip -n "$server_ns" route add "$client_ip/32" dev netemB
}

run() { # contender jar benchmark loss
  ip netns exec "$client_ns" java -jar "$2" "$3" -f 1 -wi 1 -w "$time" -i "$iterations" -r "$time" \
    -jvmArgsAppend "-Dbench.server.netns=$server_ns -Dbench.server.address=$server_ip" \
    -rf json -rff "$out/$1-loss$4.json" > "$out/$1-loss$4.log" 2>&1 \
    || echo "bench-loss.sh: $1 at loss $4 failed (a call past its 300 s deadline, or worse); see $out/$1-loss$4.log" >&2
}

for loss in $losses; do
  setup "$loss"
  echo "loss $loss, one-way delay $delay"
  if [ -z "$only" ] || [ "$only" = triple ]; then
    run triple "$root/triple-benchmark/triple/target/triple-benchmarks.jar" LossBenchmark "$loss"
  fi
  if [ -z "$only" ] || [ "$only" = grpc ]; then
    run grpc "$root/triple-benchmark/grpc/target/grpc-benchmarks.jar" GrpcLossBenchmark "$loss"
  fi
  teardown
  tail -2 "$out/relay-loss$loss.log"
done

python3 - "$out" <<'PYTHON'
import glob, json, re, sys
out = sys.argv[1]
rows = []
for path in sorted(glob.glob(f"{out}/*-loss*.json")):
    contender, loss = re.match(r".*/(\w+)-loss([0-9.]+)\.json", path).groups()
    for result in json.load(open(path)):
        name = "triple-" + result.get("params", {}).get("transport", "") if contender == "triple" else "grpc-java-h2"
        for part in ("getUser", "download"):
            metric = result["secondaryMetrics"][part]
            pct = metric["scorePercentiles"]
            rows.append((float(loss), name, part, pct["50.0"], pct["99.0"], metric["score"]))
print(f"{'loss':>6} {'contender':<14} {'call':<9} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9}")
for loss, name, part, p50, p99, mean in sorted(rows):
    print(f"{loss:>6} {name:<14} {part:<9} {p50:>9.1f} {p99:>9.1f} {mean:>9.1f}")
PYTHON
