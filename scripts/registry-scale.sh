#!/usr/bin/env bash
# Runs the registry scale harness: Dubbo 3's Seed-700 address-push shape (70 applications x 10
# services x 3,143 instances = 2.2 million service-level addresses) against the consumer directory,
# plus a one-million-instance resync and, where the ZooKeeper harness is built, the ZooKeeper push
# latency. Builds first (mvn -B install -DskipTests) unless --no-build. Ends with one line:
#   retained_heap_mb=N alloc_per_change_bytes=N change_p99_ms=N resync_1m_ms=N
#
#   scripts/registry-scale.sh [--no-build] [--apps N] [--services N] [--instances N] [--changes N] [--resync N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build=true
args=()
for arg in "$@"; do
  case "$arg" in
    --no-build) build=false ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) args+=("$arg") ;;
  esac
done

if [ "$build" = true ]; then
  echo "Building Triple (mvn -B -q install -DskipTests)..."
  mvn -B -q install -DskipTests
fi

jar=triple-benchmark/registry/target/registry-scale.jar
java -Xms4g -Xmx4g -XX:+UseG1GC -jar "$jar" "${args[@]+"${args[@]}"}"
