#!/usr/bin/env bash
# The long schedule of the cluster-fault test (issue 36 part 2): ClusterFaultScheduleTest's round of
# faults (SIGKILL, partitions, a slow link, the registry server restarted, the ZooKeeper leader
# killed, a consumer's session expired, SIGTERM) repeated --rounds times, one after another, while two
# consumers keep calling; `mvn -B verify` runs one round. Prints the summary table (also in
# triple-interop-testing/target/cluster-faults/summary.md, beside every JVM's call and execution log).
#
#   scripts/cluster-faults.sh [--rounds 10]
#   MAVEN_ARGS="-o" scripts/cluster-faults.sh ...                      (extra Maven flags)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rounds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --rounds=*) rounds="${1#--rounds=}"; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
  echo "--rounds must be a positive number: $rounds" >&2
  exit 2
fi

module=triple-interop-testing
log="$module/target/cluster-faults.log"
mkdir -p "$module/target"
echo "Running $rounds round(s) of cluster faults (log: $log)..."
status=0
# shellcheck disable=SC2086
mvn -B ${MAVEN_ARGS:-} -pl "$module" -am verify -Dtest=ClusterFaultScheduleTest \
    -Dsurefire.failIfNoSpecifiedTests=false -Dtriple.extraTestRuns.skip=true \
    -Dtriple.clusterFaults.rounds="$rounds" >"$log" 2>&1 || status=$?
summary="$module/target/cluster-faults/summary.md"
if [ -f "$summary" ]; then
  cat "$summary"
fi
if [ $status -ne 0 ]; then
  grep -E 'Tests run:|FAIL|AssertionError' "$log" | head -20 || true
  echo "cluster-faults: FAILED (see $log)"
else
  echo "cluster-faults: ok"
fi
exit $status
