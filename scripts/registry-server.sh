#!/usr/bin/env bash
# Runs Triple's standalone registry server (io.triplerpc.registry.server.RegistryServerMain) until
# stopped, building it first if a source changed. Flags are passed through:
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

module=triple-registry
stamp="$module/target/registry-server.stamp"
if [ ! -f "$stamp" ] || [ ! -f "$module/target/runtime-classpath.txt" ] \
   || [ -n "$(find pom.xml triple-serialization triple-core triple-transport-netty "$module" \
        -path '*/target' -prune -o \( -name '*.java' -o -name '*.proto' -o -name pom.xml \) -newer "$stamp" -print -quit)" ]; then
  echo "Building the registry server (mvn -B -q compile -pl $module -am)..." >&2
  # shellcheck disable=SC2086
  mvn -B -q ${MAVEN_ARGS:-} compile -pl "$module" -am >&2
  touch "$stamp"
fi

exec java -cp "$module/target/classes:$(cat "$module/target/runtime-classpath.txt")" \
  io.triplerpc.registry.server.RegistryServerMain "$@"
