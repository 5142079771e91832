# Shared by the loadtest scripts (source it from the repository root).

# fresh_database NAME: drops and creates database NAME owned by the role vfps_bench through an
# admin psql ($ADMIN_PSQL, default `runuser -u postgres -- psql`), migrates it with the jar, and
# exports ConnectionStrings__PostgreSQL for it.
fresh_database() {
  local name=$1
  ${ADMIN_PSQL:-runuser -u postgres -- psql} -q -v ON_ERROR_STOP=1 <<SQL
DROP DATABASE IF EXISTS $name;
SELECT 'CREATE ROLE vfps_bench LOGIN PASSWORD ''vfps_bench'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_bench') \gexec
CREATE DATABASE $name OWNER vfps_bench;
SQL
  export ConnectionStrings__PostgreSQL="Host=${PGHOST_BENCH:-127.0.0.1};Database=$name;Username=vfps_bench;Password=vfps_bench"
  "$JAVA_HOME/bin/java" -jar target/vfps.jar migrate >/dev/null
}

# async_profiler_library: prints the path of async-profiler's native library, fetching the
# tools.profiler:async-profiler jar from Maven Central (the Maven wrapper) the first time
async_profiler_library() {
  local version=${PROFILER_VERSION:-4.2} directory
  directory=target/async-profiler-${PROFILER_VERSION:-4.2}
  if [ ! -f "$directory/libasyncProfiler.so" ]; then
    ./mvnw -q -B -ntp dependency:copy -Dartifact="tools.profiler:async-profiler:$version" \
      -DoutputDirectory="$directory" >&2
    unzip -q -o -j "$directory/async-profiler-$version.jar" linux-x64/libasyncProfiler.so -d "$directory"
  fi
  realpath "$directory/libasyncProfiler.so"
}
