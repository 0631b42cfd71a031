#!/usr/bin/env bash
# Fuzzes Triple's parsers with Jazzer (coverage-guided), one target after another, each for --duration.
# An input that makes a target fail is written beside the target's kept inputs
# (src/test/resources/<package>/<Class>Inputs/<method>/), where `mvn verify` replays it from then on;
# the corpus the fuzzer grew stays in <module>/.cifuzz-corpus (not committed). An input that runs longer
# than --input-timeout (30s) is a hang: libFuzzer stops and writes it as timeout-… . Ends with one line per
# target:
#   fuzz target=Class#method seconds=N executions=N result=ok|FAILED
#
#   scripts/fuzz.sh [--duration 10m] [--input-timeout 30s] [--list] [Class#method ...]   (default: every target)
#   MAVEN_ARGS="-o" scripts/fuzz.sh ...                               (extra Maven flags)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# module and target, one per line
targets_all="triple-transport-netty ServerInputFuzzTest#connectionBytes
triple-transport-netty ServerInputFuzzTest#http2Frames
triple-transport-netty ServerInputFuzzTest#grpcWebText
triple-transport-netty ServerInputFuzzTest#envelopes
triple-transport-netty ServerInputFuzzTest#connectGetQueries
triple-transport-netty Http1ClientFuzzTest#responseBytes
triple-serialization AllowListFuzzTest#hessian2
triple-serialization-fastjson2 Fastjson2AllowListFuzzTest#jsonb
triple-core JsonArgumentsFuzzTest#requestBodies
triple-core RestParsersFuzzTest#targets
triple-registry-server RegistryWireFuzzTest#messages
triple-registry-zookeeper DubboZnodesFuzzTest#znodes"

duration=10m
# Jazzer passes a JUnit timeout of the fuzz test on to libFuzzer as its per-input -timeout; JUnit's own
# enforcement is turned off, as it would count the whole run as one invocation.
input_timeout="30 s"
chosen=()
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --input-timeout) input_timeout="${2%s} s"; shift 2 ;;
    --list) echo "$targets_all" | awk '{print $2}'; exit 0 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) chosen+=("$1"); shift ;;
  esac
done

summary=()
status=0
while read -r module target; do
  if [ ${#chosen[@]} -gt 0 ] && [[ ! " ${chosen[*]} " == *" $target "* ]]; then
    continue
  fi
  log="$module/target/fuzz-${target//#/-}.log"
  mkdir -p "$module/target"
  echo "Fuzzing $target for $duration (log: $log)..."
  result=ok
  # shellcheck disable=SC2086
  if ! JAZZER_FUZZ=1 mvn -B ${MAVEN_ARGS:-} -pl "$module" -am test -Dtest="$target" \
      -Dsurefire.failIfNoSpecifiedTests=false -Dtriple.extraTestRuns.skip=true \
      -Djazzer.max_duration="$duration" \
      -Djunit.jupiter.execution.timeout.testtemplate.method.default="$input_timeout" \
      -Djunit.jupiter.execution.timeout.mode=disabled >"$log" 2>&1; then
    result=FAILED
    status=1
  fi
  done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
  runs=$(echo "$done_line" | awk '{print $2}')
  seconds=$(echo "$done_line" | awk '{print $5}')
  summary+=("fuzz target=$target seconds=${seconds:-0} executions=${runs:-0} result=$result")
done <<< "$targets_all"

printf '%s\n' "${summary[@]}"
exit $status
