#!/usr/bin/env bash
# Runs Triple's standalone registry server (io.triplerpc.registry.server.RegistryServerMain, module
# triple-registry-server) until stopped, building it first if a source changed. Flags are passed through:
#   scripts/registry-server.sh [--host 127.0.0.1] [--port 7070] [--lease-ttl 10s] [--max-lease-ttl 5m] [--startup-grace 0s]
#                              [--token-file FILE] [--tls-cert CERT.pem --tls-key KEY.pem [--tls-client-ca CA.pem]]
# --token-file holds one "<token> <right>[,<right>]" per line (rights: register for providers,
# subscribe for consumers; '#' starts a comment); clients send "authorization: Bearer <token>".
# Without it the registry serves every caller that reaches its port, and logs a warning saying so.
# --tls-cert/--tls-key (PEM, PKCS#8 key) serve TLS; --tls-client-ca also requires client
# certificates signed by that CA. A bad flag or token file line (named by its number) exits with 2.
# It prints "registry listening on HOST:PORT" once it serves. Extra Maven flags (such as -o) may be
# given in MAVEN_ARGS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

module=triple-registry-server
stamp="$module/target/registry-server.stamp"
if [ ! -f "$stamp" ] || [ ! -f "$module/target/runtime-classpath.txt" ] \
   || [ -n "$(find pom.xml triple-serialization triple-core triple-transport-netty triple-registry "$module" \
        -path '*/target' -prune -o \( -name '*.java' -o -name '*.proto' -o -name pom.xml \) -newer "$stamp" -print -quit)" ]; then
  echo "Building the registry server (mvn -B -q test-compile -Dmaven.test.skip -pl $module -am)..." >&2
  # test-compile with the tests skipped: the module's class path file names its test-scoped dependencies
  # too (triple-registry's test helpers), which the reactor hands out only from that phase on.
  # shellcheck disable=SC2086
  mvn -B -q ${MAVEN_ARGS:-} test-compile -Dmaven.test.skip=true -pl "$module" -am >&2
  touch "$stamp"
fi

exec java -cp "$module/target/classes:$(cat "$module/target/runtime-classpath.txt")" \
  io.triplerpc.registry.server.RegistryServerMain "$@"
