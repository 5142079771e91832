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

# Pods as cgroups (v1 controllers under /sys/fs/cgroup, as on this project's machines), the
# mechanism container runtimes use. pod_cgroup_create NAME MIB makes the cpu and memory groups NAME,
# limited to one CPU (cpu.cfs_quota_us = cpu.cfs_period_us) and MIB MiB; pod_cgroup_enter NAME
# prints the shell words that move the shell running them into both, for
# `sh -c "$(pod_cgroup_enter NAME) exec ..."`; pod_cgroup_remove NAME removes them once empty.
pod_cgroups_writable() { [ -w /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/cpu ]; }
pod_cgroup_create() {
  local cpu=/sys/fs/cgroup/cpu/$1 memory=/sys/fs/cgroup/memory/$1
  mkdir -p "$cpu" "$memory"
  cat /sys/fs/cgroup/cpu/cpu.cfs_period_us >"$cpu/cpu.cfs_period_us"
  cat "$cpu/cpu.cfs_period_us" >"$cpu/cpu.cfs_quota_us"
  echo $(($2 * 1024 * 1024)) >"$memory/memory.limit_in_bytes"
}
pod_cgroup_enter() {
  echo "echo \$\$ >/sys/fs/cgroup/cpu/$1/cgroup.procs; echo \$\$ >/sys/fs/cgroup/memory/$1/cgroup.procs;"
}
pod_cgroup_remove() { rmdir "/sys/fs/cgroup/cpu/$1" "/sys/fs/cgroup/memory/$1" 2>/dev/null || true; }
