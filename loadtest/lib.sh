# Shared by the loadtest scripts (source it from the repository root).

# fresh_database NAME: drops and creates database NAME owned by the role vfps_bench through an
# admin psql ($ADMIN_PSQL, default `runuser -u postgres -- psql`), migrates it with the jar under
# test ($JAR, default target/vfps.jar: an older jar meets the schema it knows), and exports
# ConnectionStrings__PostgreSQL for it.
fresh_database() {
  local name=$1
  ${ADMIN_PSQL:-runuser -u postgres -- psql} -q -v ON_ERROR_STOP=1 <<SQL
DROP DATABASE IF EXISTS $name;
SELECT 'CREATE ROLE vfps_bench LOGIN PASSWORD ''vfps_bench'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_bench') \gexec
CREATE DATABASE $name OWNER vfps_bench;
SQL
  export ConnectionStrings__PostgreSQL="Host=${PGHOST_BENCH:-127.0.0.1};Database=$name;Username=vfps_bench;Password=vfps_bench"
  "$JAVA_HOME/bin/java" -jar "${JAR:-target/vfps.jar}" migrate >/dev/null
}

# Resource limits with cgroups, as a container engine sets them: cgroup v1 (cpu and memory
# controllers mounted under /sys/fs/cgroup/{cpu,memory}, as on this project's machines) or v2
# (one unified hierarchy at /sys/fs/cgroup with the cpu and memory controllers). Needs root.

# cgroup_version: prints 1 or 2, or nothing when neither can be written
cgroup_version() {
  if [ -w /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/cpu ]; then
    echo 1
  elif [ -w /sys/fs/cgroup/cgroup.subtree_control ] &&
    grep -qw memory /sys/fs/cgroup/cgroup.controllers && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
    echo 2
  fi
}

# cgroup_create NAME MEMORY_MIB: a group limited to one CPU and MEMORY_MIB
cgroup_create() {
  local name=$1 bytes=$(($2 * 1024 * 1024))
  if [ "$(cgroup_version)" = 1 ]; then
    mkdir -p "/sys/fs/cgroup/cpu/$name" "/sys/fs/cgroup/memory/$name"
    cat /sys/fs/cgroup/cpu/cpu.cfs_period_us >"/sys/fs/cgroup/cpu/$name/cpu.cfs_period_us"
    cat "/sys/fs/cgroup/cpu/$name/cpu.cfs_period_us" >"/sys/fs/cgroup/cpu/$name/cpu.cfs_quota_us"
    echo "$bytes" >"/sys/fs/cgroup/memory/$name/memory.limit_in_bytes"
  else
    grep -qw memory /sys/fs/cgroup/cgroup.subtree_control || echo +memory >/sys/fs/cgroup/cgroup.subtree_control
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
    mkdir -p "/sys/fs/cgroup/$name"
    echo "100000 100000" >"/sys/fs/cgroup/$name/cpu.max"
    echo "$bytes" >"/sys/fs/cgroup/$name/memory.max"
    echo 0 >"/sys/fs/cgroup/$name/memory.swap.max" 2>/dev/null || true
  fi
}

# cgroup_enter NAME: shell commands that move the shell running them ($$) into the group
cgroup_enter() {
  if [ "$(cgroup_version)" = 1 ]; then
    echo "echo \$\$ >/sys/fs/cgroup/cpu/$1/cgroup.procs; echo \$\$ >/sys/fs/cgroup/memory/$1/cgroup.procs;"
  else
    echo "echo \$\$ >/sys/fs/cgroup/$1/cgroup.procs;"
  fi
}

# cgroup_peak NAME: the group's peak memory in bytes (page cache included); v2 kernels before 5.19
# have no peak, and give the current usage
cgroup_peak() {
  if [ "$(cgroup_version)" = 1 ]; then
    cat "/sys/fs/cgroup/memory/$1/memory.max_usage_in_bytes"
  else
    cat "/sys/fs/cgroup/$1/memory.peak" 2>/dev/null || cat "/sys/fs/cgroup/$1/memory.current"
  fi
}

# cgroup_anonymous NAME: the group's anonymous memory now, in bytes (no page cache)
cgroup_anonymous() {
  if [ "$(cgroup_version)" = 1 ]; then
    awk '/^total_rss /{print $2}' "/sys/fs/cgroup/memory/$1/memory.stat"
  else
    awk '/^anon /{print $2}' "/sys/fs/cgroup/$1/memory.stat"
  fi
}

# cgroup_oom_kills NAME: how many processes of the group the kernel's OOM killer killed
cgroup_oom_kills() {
  if [ "$(cgroup_version)" = 1 ]; then
    awk '/^oom_kill /{print $2}' "/sys/fs/cgroup/memory/$1/memory.oom_control"
  else
    awk '/^oom_kill /{print $2}' "/sys/fs/cgroup/$1/memory.events"
  fi
}

# cgroup_remove NAME (once its processes are gone)
cgroup_remove() {
  if [ "$(cgroup_version)" = 1 ]; then
    rmdir "/sys/fs/cgroup/cpu/$1" "/sys/fs/cgroup/memory/$1" 2>/dev/null || true
  else
    rmdir "/sys/fs/cgroup/$1" 2>/dev/null || true
  fi
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

# start_java LOG PATTERN ARGS...: starts "$JAVA_HOME/bin/java ARGS..." in the background with its
# output in LOG, waits (up to 2 minutes) until LOG holds PATTERN, and sets STARTED_PID; prints the
# log and fails when the process ends first. The caller's environment is the process's settings.
start_java() {
  local log=$1 pattern=$2
  shift 2
  "$JAVA_HOME/bin/java" "$@" >"$log" 2>&1 &
  STARTED_PID=$!
  for _ in $(seq 1 240); do
    grep -q "$pattern" "$log" && return 0
    kill -0 "$STARTED_PID" 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.5
  done
  cat "$log" >&2
  return 1
}

# cpu_seconds PID: the process's user + system CPU so far, in seconds, from /proc
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}
