#!/usr/bin/env bash
# Runs the registry scale harness: Dubbo 3's Seed-700 address-push shape (70 applications x 10
# services x 3,143 instances = 2.2 million service-level addresses) against the consumer directory,
# plus a one-million-instance resync and, where the ZooKeeper harness is built, the ZooKeeper push
# latency. Builds first (mvn -B install -DskipTests) unless --no-build. Ends with one line:
#   retained_heap_mb=N alloc_per_change_bytes=N change_p99_ms=N resync_1m_ms=N (then further keys)
#
#   scripts/registry-scale.sh [--no-build] [--no-zookeeper] [--scale N] [--histogram 1] [--apps N]
#                             [--services N] [--instances N] [--changes N] [--resync N]
#
# --scale N runs N times the Seed-700 shape (70 N applications, a resync of N million instances) in a
# heap of 4 GB + 0.6 GB per N (10 GB at --scale 10, at most 12 GB); --histogram 1 prints the classes
# the full sync retained, in bytes per instance.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=true
zookeeper=true
scale=1
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --no-zookeeper) zookeeper=false ;;
    --scale) scale="${2:?--scale needs a number}"; args+=("$1" "$2"); shift ;;
    --scale=*) scale="${1#--scale=}"; args+=("$1") ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done
# 4 GB for the 1x run (as before); room for two lists of N million instances at N x.
heap_mb=$(( scale <= 1 ? 4096 : 4096 + scale * 600 ))
heap_mb=$(( heap_mb > 12288 ? 12288 : heap_mb ))

if [ "$build" = true ]; then
  echo "Building Triple (mvn -B -q install -DskipTests)..."
  mvn -B -q install -DskipTests
fi

# ZooKeeper: a real in-process server (curator-test), a 10,000-instance application, then znode
# writes timed until the consumer's listener sees them.
if [ "$zookeeper" = true ]; then
  module=triple-registry-zookeeper
  mvn -B -q -Dstyle.color=never dependency:build-classpath -pl "$module" -Dmdep.includeScope=test \
      -Dmdep.outputFile=target/zk-latency.classpath >/dev/null 2>&1 \
      || { echo "registry-scale.sh: could not resolve the ZooKeeper harness's class path (build first)" >&2; exit 1; }
  java -Xmx1g -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/zk-latency.classpath")" \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.io.triplerpc=warn \
      io.triplerpc.registry.zookeeper.ZooKeeperPushLatency
fi

jar=triple-benchmark/registry/target/registry-scale.jar
java -Xms${heap_mb}m -Xmx${heap_mb}m -XX:+UseG1GC -jar "$jar" "${args[@]+"${args[@]}"}"
