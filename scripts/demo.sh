#!/usr/bin/env bash
# Builds Triple if needed, then runs the demo: a server with the greeter service on a free loopback
# port, a Triple client calling it in every call shape, and curl calling it over HTTP/1.1 and HTTP/2,
# printing each request and answer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

classpath_file=triple-examples/target/runtime-classpath.txt
if [ ! -f "$classpath_file" ] || [ ! -d triple-examples/target/classes ] \
   || [ -n "$(find . \( -path ./.git -o -path '*/target' \) -prune -o \( -name '*.java' -o -name '*.proto' -o -name pom.xml \) -newer "$classpath_file" -print -quit)" ]; then
  echo "Building Triple (mvn -B -q install -DskipTests)..."
  mvn -B -q install -DskipTests
fi

exec java -cp "triple-examples/target/classes:$(cat "$classpath_file")" io.triplerpc.examples.Demo "$@"
