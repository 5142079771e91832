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
