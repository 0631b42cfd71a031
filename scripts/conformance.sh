#!/usr/bin/env bash
# Runs the Connect conformance suite (connectconformance v1.0.5) against Triple and prints the runner's
# summary. Usage: scripts/conformance.sh [--mode server|client] [--conf FILE] [runner flags, e.g. --run PATTERN -v]
# Build first with: mvn -B install -DskipTests. Installs the runner with `go install` if it is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
module="$root/triple-conformance"
version=v1.0.5
mode=server
conf=""
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) mode="$2"; shift 2 ;;
    --conf) conf="$2"; shift 2 ;;
    *) break ;;
  esac
done
case "$mode" in
  server) main=io.triplerpc.conformance.ServerUnderTest; conf="${conf:-$module/config/server.yaml}" ;;
  client) main=io.triplerpc.conformance.ClientUnderTest; conf="${conf:-$module/config/client.yaml}" ;;
  *) echo "conformance: --mode must be server or client, not $mode" >&2; exit 2 ;;
esac
if [ ! -f "$module/target/runtime-classpath.txt" ] || [ ! -d "$module/target/classes/io/triplerpc/conformance" ]; then
  echo "conformance: Triple is not built; run: (cd $root && mvn -B install -DskipTests)" >&2
  exit 1
fi
runner="$(command -v connectconformance || true)"
gobin="$(go env GOBIN 2>/dev/null || true)"
gobin="${gobin:-$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin}"
if [ -z "$runner" ] && [ -x "$gobin/connectconformance" ]; then
  runner="$gobin/connectconformance"
fi
if [ -z "$runner" ]; then
  command -v go >/dev/null || { echo "conformance: needs Go to install connectconformance $version" >&2; exit 1; }
  go install "connectrpc.com/conformance/cmd/connectconformance@$version"
  runner="$gobin/connectconformance"
fi
exec "$runner" --mode "$mode" --conf "$conf" "$@" -- \
  java -cp "$module/target/classes:$(cat "$module/target/runtime-classpath.txt")" "$main"
