#!/usr/bin/env bash
# Runs the registry scale harness: Dubbo 3's Seed-700 address-push shape (70 applications x 10
# services x 3,143 instances = 2.2 million service-level addresses) against the consumer directory,
# plus a one-million-instance resync and, where the ZooKeeper harness is built, the ZooKeeper push
# latency. Builds first (mvn -B install -DskipTests) unless --no-build. Ends with one line:
#   retained_heap_mb=N alloc_per_change_bytes=N change_p99_ms=N resync_1m_ms=N (then further keys)
#
#   scripts/registry-scale.sh [--no-build] [--no-zookeeper] [--zookeeper-only] [--scale N] [--histogram 1]
#                             [--apps N] [--services N] [--instances N] [--changes N] [--resync N]
#                             [--zk-instances N]
#
# --scale N runs N times the Seed-700 shape (70 N applications, a resync of N million instances) in a
# heap of 4 GB + 0.6 GB per N (10 GB at --scale 10, at most 12 GB); --histogram 1 prints the classes
# the full sync retained, in bytes per instance.
# --zk-instances N: the ZooKeeper application's instances (10,000 unless set); 100000 is the issue's
# ZooKeeper scale run, which needs -Djute.maxbuffer above 1 MB (set here when N > 40,000) and a 3 GB heap.
# --zookeeper-only: skips the in-memory directory run. MAVEN_ARGS (e.g. "-o -Dmaven.repo.local=DIR") is
# passed to every mvn call.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=true
zookeeper=true
scale=1
args=()
zk_instances=10000
zookeeper_only=false
# shellcheck disable=SC2206 # MAVEN_ARGS is a list of words, as Maven 3.9 reads it.
mvn_args=(${MAVEN_ARGS:-})
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --no-zookeeper) zookeeper=false ;;
    --zookeeper-only) zookeeper_only=true ;;
    --zk-instances) zk_instances="${2:?--zk-instances needs a number}"; shift ;;
    --zk-instances=*) zk_instances="${1#*=}" ;;
    --scale) scale="${2:?--scale needs a number}"; args+=("$1" "$2"); shift ;;
    --scale=*) scale="${1#--scale=}"; args+=("$1") ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done
# 4 GB for the 1x run (as before); room for two lists of N million instances at N x.
heap_mb=$(( scale <= 1 ? 4096 : 4096 + scale * 600 ))
heap_mb=$(( heap_mb > 12288 ? 12288 : heap_mb ))

if [ "$build" = true ]; then
  echo "Building Triple (mvn -B -q install -DskipTests)..."
  mvn "${mvn_args[@]+"${mvn_args[@]}"}" -B -q install -DskipTests
fi

# ZooKeeper: a real in-process server (curator-test), a 10,000-instance application (--zk-instances),
# then znode writes timed until the consumer's directory uses them.
if [ "$zookeeper" = true ]; then
  module=triple-registry-zookeeper
  # In the reactor (-am), so that Triple's own modules are this tree's classes, not an installed copy.
  mvn "${mvn_args[@]+"${mvn_args[@]}"}" -B -q -Dstyle.color=never test-compile dependency:build-classpath \
      -pl "$module" -am -Dcheckstyle.skip -Dmdep.includeScope=test -Dmdep.outputFile=target/zk-latency.classpath \
      >/dev/null 2>&1 \
      || { echo "registry-scale.sh: could not resolve the ZooKeeper harness's class path (build first)" >&2; exit 1; }
  zk_java=(-Xmx1g)
  if [ "$zk_instances" -gt 40000 ]; then
    # The children list of one parent exceeds ZooKeeper's default packet limit (1 MB) past ~45,000
    # instances; the in-process server and both clients read this property.
    zk_java=(-Xmx3g -Djute.maxbuffer=$((zk_instances * 64)))
  fi
  java "${zk_java[@]}" -cp "$module/target/test-classes:$module/target/classes:$(cat "$module/target/zk-latency.classpath")" \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.log.io.triplerpc=warn \
      io.triplerpc.registry.zookeeper.ZooKeeperPushLatency --instances "$zk_instances"
fi
[ "$zookeeper_only" = true ] && exit 0

jar=triple-benchmark/registry/target/registry-scale.jar
java -Xms${heap_mb}m -Xmx${heap_mb}m -XX:+UseG1GC -jar "$jar" "${args[@]+"${args[@]}"}"
