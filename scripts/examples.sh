#!/usr/bin/env bash
# Builds and tests every standalone example (each triple-examples/*/pom.xml) as a project of its own
# would be built: against Triple's artifacts in the local Maven repository, which this script installs
# first (mvn install -DskipTests of this repository), so it needs nothing installed by hand.
#
#   scripts/examples.sh [maven options]    e.g. -Dmaven.repo.local=/tmp/m2, or the same in $MAVEN_ARGS
#   SKIP_INSTALL=1 scripts/examples.sh     when this checkout's artifacts are already installed
#
# Stops at the first example that fails, naming it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

mvn=mvn
# Options for every Maven run: $MAVEN_ARGS (Maven 3.8 does not read it itself; 3.9 reading it too
# repeats them, which changes nothing), then the arguments.
read -r -a env_args <<< "${MAVEN_ARGS:-}"
mvn_args=(-B "${env_args[@]}" "$@")

examples=()
for pom in triple-examples/*/pom.xml; do
  [ -f "$pom" ] && examples+=("$(dirname "$pom")")
done
if [ ${#examples[@]} -eq 0 ]; then
  echo "examples.sh: no triple-examples/*/pom.xml found" >&2
  exit 1
fi

if [ -z "${SKIP_INSTALL:-}" ]; then
  # Every artifact triple-bom lists, and the BOM itself. Tests and lint ran in mvn verify.
  echo "examples.sh: installing Triple's artifacts (mvn install -DskipTests)"
  "$mvn" "${mvn_args[@]}" -q install -DskipTests -Dcheckstyle.skip
fi

for example in "${examples[@]}"; do
  # An example that needs a newer Maven than the machine's (protobuf-maven-plugin 5 needs 3.9.6) carries
  # a wrapper that fetches it.
  example_mvn="$mvn"
  if [ -x "$example/mvnw" ]; then example_mvn="$root/$example/mvnw"; fi
  echo "examples.sh: $example ($(basename "$example_mvn") verify)"
  if ! (cd "$example" && "$example_mvn" "${mvn_args[@]}" -ntp verify); then
    echo "examples.sh: FAILED: $example (its own build: cd $example && $(basename "$example_mvn") verify)" >&2
    exit 1
  fi
done
echo "examples.sh: ${#examples[@]} example(s) passed: ${examples[*]}"
