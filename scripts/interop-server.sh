#!/usr/bin/env bash
# Runs Triple's gRPC interop server (io.triplerpc.interop.InteropServer); flags are passed through.
# Build first with: mvn -B install -DskipTests
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module="$root/triple-interop-testing"
if [ ! -f "$module/target/runtime-classpath.txt" ] || [ ! -d "$module/target/classes/io/triplerpc/interop" ]; then
  echo "interop-server: Triple is not built; run: (cd $root && mvn -B install -DskipTests)" >&2
  exit 1
fi
exec java -cp "$module/target/classes:$(cat "$module/target/runtime-classpath.txt")" io.triplerpc.interop.InteropServer "$@"
