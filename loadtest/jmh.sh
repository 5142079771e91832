#!/usr/bin/env bash
# JMH micro benchmarks of the six generators: operations per second and, with the gc profiler,
# bytes allocated per operation (gc.alloc.rate.norm). Extra arguments go to JMH, e.g. -f 3.
# BENCHMARK=SealerBenchmark runs the sealed originals' benchmark instead (ns per call; JMH's own
# table only).
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
BENCHMARK=${BENCHMARK:-GeneratorBenchmark}
./mvnw -q -B test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/test-classpath.txt
"$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  org.openjdk.jmh.Main "$BENCHMARK" -prof gc "$@" | tee target/jmh.txt
[ "$BENCHMARK" = GeneratorBenchmark ] || exit 0
echo
echo "| method | ops/s | bytes/op |"
echo "|---|---:|---:|"
awk '/^GeneratorBenchmark.generate /{ops[$2]=$5}
     /^GeneratorBenchmark.generate:gc.alloc.rate.norm /{alloc[$2]=$5}
     END{for (m in ops) printf "| %s | %s | %s |\n", m, ops[m], alloc[m]}' target/jmh.txt | sort
