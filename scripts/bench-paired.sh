#!/usr/bin/env bash
# Compares two configurations of one JMH benchmark on a noisy machine: both run at once, and each
# (its JMH fork and the server that fork started) runs in turn for --slice seconds while the other is
# stopped (SIGSTOP), so both see the same fast and slow spells of the host. A stopped JVM spends no CPU
# and makes no calls, so the CPU per call of each iteration (both JVMs, from ServerCpuProfiler) is
# unchanged by the stops; ops/s is about half of a run alone. Each round swaps which one goes first.
#
#   scripts/bench-paired.sh [--out DIR] [--slice S] [--rounds N] [--iterations N] [--jar JAR]
#                           [--jar-b JAR] BENCHMARK 'JMH ARGS A' 'JMH ARGS B'
#   scripts/bench-paired.sh --report DIR
#
#   e.g. scripts/bench-paired.sh --out /tmp/metrics 'ObservabilityBenchmark\.getUser$' \
#          '-p observe=off' '-p observe=metrics'
#
# Prints, per iteration, both CPU-per-call figures and their ratio B/A, the median ratio of all rounds,
# and the same median for each JVM alone (pairs.txt in DIR beside the JMH JSON and logs); --report
# prints that again from DIR. --jar-b compares two builds (default: the same jar,
# triple-benchmark/triple/target/triple-benchmarks.jar).
# Defaults: 1 s slices, 2 rounds, 2 warm-up and 8 measured iterations of 10 s (about 4 minutes a round).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=""
slice=1
rounds=2
iterations=8
jar="$root/triple-benchmark/triple/target/triple-benchmarks.jar"
jar_b=""
report_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift ;;
    --slice) slice="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    --jar) jar="$2"; shift ;;
    --jar-b) jar_b="$2"; shift ;;
    --report) out="$2"; report_only=true; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "bench-paired.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done

# Each iteration's CPU per call of A and B (client and server JVMs), their ratio, and the median ratio.
report() {
  python3 - "$1" <<'PYTHON'
import glob, json, statistics, sys
out = sys.argv[1]
def side(path, name):
    return json.load(open(path))[0]["secondaryMetrics"][name + ".cpu"]["rawData"][0]
def cpu(path):
    return [c + s for c, s in zip(side(path, "client"), side(path, "server"))]
rounds = sorted(int(f.rsplit("-r", 1)[1][:-len(".json")]) for f in glob.glob(f"{out}/a-r*.json"))
ratios, first, second = [], [], []
print("round  iteration  A µs/call  B µs/call  B/A")
for r in rounds:
    a, b = cpu(f"{out}/a-r{r}.json"), cpu(f"{out}/b-r{r}.json")
    for i, (x, y) in enumerate(zip(a, b), 1):
        ratios.append(y / x)
        first.append(x)
        second.append(y)
        print(f"{r:5d}  {i:9d}  {x:9.2f}  {y:9.2f}  {y / x:.3f}")
q = statistics.quantiles(ratios, n=4)
print(f"median B/A of {len(ratios)} iterations: {statistics.median(ratios):.3f} (quartiles {q[0]:.3f}-{q[2]:.3f});"
      f" median µs/call A {statistics.median(first):.2f}, B {statistics.median(second):.2f}")
# Each JVM alone: where the difference lands (the client's figure includes JMH's calling threads).
for name in ("client", "server"):
    a_side, b_side, side_ratios = [], [], []
    for r in rounds:
        for x, y in zip(side(f"{out}/a-r{r}.json", name), side(f"{out}/b-r{r}.json", name)):
            a_side.append(x)
            b_side.append(y)
            side_ratios.append(y / x)
    q = statistics.quantiles(side_ratios, n=4)
    print(f"  {name} JVM alone: median B/A {statistics.median(side_ratios):.3f} (quartiles {q[0]:.3f}-{q[2]:.3f});"
          f" median µs/call A {statistics.median(a_side):.2f}, B {statistics.median(b_side):.2f}")
PYTHON
}

if [ "$report_only" = true ]; then
  report "$out"
  exit 0
fi
if [ $# -ne 3 ]; then
  echo "usage: bench-paired.sh [options] BENCHMARK 'JMH ARGS A' 'JMH ARGS B' (--help)" >&2
  exit 2
fi
benchmark="$1"; args_a="$2"; args_b="$3"
jar_b="${jar_b:-$jar}"
out="${out:-$root/bench-results/paired-$(date -u +%Y%m%d-%H%M%S)}"
mkdir -p "$out"
common="-t 32 -f 1 -wi 2 -w 10s -i $iterations -r 10s -prof io.triplerpc.benchmark.harness.ServerCpuProfiler"

jar_of() { if [ "$1" = a ]; then echo "$jar"; else echo "$jar_b"; fi; }
args_of() { if [ "$1" = a ]; then echo "$args_a"; else echo "$args_b"; fi; }

# The JMH fork under host JVM $1, and the server JVM that fork started (if any).
pair_of() {
  local fork server
  fork=$(pgrep -P "$1" java | head -1 || true)
  [ -n "$fork" ] || return 0
  server=$(pgrep -P "$fork" java | head -1 || true)
  echo "$fork $server"
}

run_round() {
  local round=$1 first=$2 second=$3
  # shellcheck disable=SC2046,SC2086
  java -Djmh.ignoreLock=true -jar "$(jar_of "$first")" "$benchmark" $(args_of "$first") $common \
    -rf json -rff "$out/$first-r$round.json" > "$out/$first-r$round.log" 2>&1 &
  local host_first=$!
  # shellcheck disable=SC2046,SC2086
  java -Djmh.ignoreLock=true -jar "$(jar_of "$second")" "$benchmark" $(args_of "$second") $common \
    -rf json -rff "$out/$second-r$round.json" > "$out/$second-r$round.log" 2>&1 &
  local host_second=$!
  local p1="" p2="" i
  # Both set up: each fork prints the first warm-up iteration's header once its server is up.
  for i in $(seq 1 240); do
    if grep -q "Warmup Iteration   1" "$out/$first-r$round.log" 2>/dev/null \
        && grep -q "Warmup Iteration   1" "$out/$second-r$round.log" 2>/dev/null; then
      p1=$(pair_of $host_first); p2=$(pair_of $host_second)
      [ -n "$p1" ] && [ -n "$p2" ] && break
    fi
    sleep 0.5
  done
  echo "round $round: $first first; $first JVMs $p1, $second JVMs $p2" >> "$out/pids.txt"
  # shellcheck disable=SC2086
  while kill -0 $host_first 2>/dev/null && kill -0 $host_second 2>/dev/null; do
    kill -STOP $p2 2>/dev/null || true; kill -CONT $p1 2>/dev/null || true; sleep "$slice"
    kill -STOP $p1 2>/dev/null || true; kill -CONT $p2 2>/dev/null || true; sleep "$slice"
  done
  # shellcheck disable=SC2086
  kill -CONT $p1 $p2 2>/dev/null || true
  local failed=0
  wait $host_first || failed=1
  wait $host_second || failed=1
  if [ $failed -ne 0 ]; then
    echo "bench-paired.sh: a JMH run failed, see $out/*-r$round.log" >&2
    exit 1
  fi
}

{
  echo "command: scripts/bench-paired.sh --slice $slice --rounds $rounds --iterations $iterations $benchmark '$args_a' '$args_b'"
  echo "jar a: $jar ($(sha256sum "$jar" | cut -c1-12)); jar b: $jar_b ($(sha256sum "$jar_b" | cut -c1-12))"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown); $(date -u +%FT%TZ); $(nproc) cores"
} > "$out/run.txt"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then run_round "$round" a b; else run_round "$round" b a; fi
done
report "$out" | tee "$out/pairs.txt"
