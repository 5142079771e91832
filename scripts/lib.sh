# The library of the scripts in .ci/ and loadtest/: logging, cleanup on exit, starting and waiting,
# PostgreSQL, Python tools, cgroups and the profiler. Source it from the repository root
# (`. scripts/lib.sh`); it defines functions and a few variables, and runs nothing else.

# ------------------------------------------------------------------ logging

# now_ms: the time in milliseconds since the epoch
now_ms() { date +%s%3N; }

# when lib.sh was sourced: the zero of SAY_STYLE=timed
SAY_START_MS=${SAY_START_MS:-$(now_ms)}

# say MESSAGE...: one line of progress on stderr, or on the descriptor SAY_FD, in the script's
# SAY_STYLE: plain (the message, the default), section ("== message"), step (a blank line, then
# "== message") or timed ("==   12.3 s  message", the seconds since lib.sh was sourced)
say() {
  local line
  case "${SAY_STYLE:-plain}" in
    section) line="== $*" ;;
    step) line=$'\n'"== $*" ;;
    timed) line=$(printf '== %6.1f s  %s' "$((($(now_ms) - SAY_START_MS) / 100))e-1" "$*") ;;
    *) line=$* ;;
  esac
  printf '%s\n' "$line" >&"${SAY_FD:-2}"
}

# ------------------------------------------------------------------ cleanup on exit

CLEANUPS=()

# on_exit COMMAND: registers COMMAND (one string, evaluated then, so it sees the variables' values
# at the exit) to run when the script exits, whatever ends it. The cleanups run last registered
# first, without set -e; CLEANUP_STATUS holds the status the script exits with, which they keep.
on_exit() {
  CLEANUPS+=("$1")
  trap run_cleanups EXIT
}

# run_cleanups: runs the registered cleanups now, once (the exit runs none of them again)
run_cleanups() {
  # shellcheck disable=SC2034 # read by the cleanups
  CLEANUP_STATUS=$?
  local options=$- i
  set +e
  for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
    eval "${CLEANUPS[i]}"
  done
  CLEANUPS=()
  if [[ $options == *e* ]]; then set -e; fi
  return 0
}

# stop_process PID...: sends each process SIGTERM and waits for it to end (it must be a child of
# this shell); an empty PID or a process already gone is skipped, and nothing fails, under set -e
# too (wait answers with the process's status, 143 for a service that ends on SIGTERM)
stop_process() {
  local pid
  for pid in "$@"; do
    { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; } || true
  done
  return 0
}

# ------------------------------------------------------------------ starting and waiting

# wait_for SECONDS INTERVAL PID COMMAND...: runs COMMAND every INTERVAL seconds until it succeeds
# (status 0); status 1 when SECONDS passed first, 2 when the process PID (unless empty) ended first
wait_for() {
  local seconds=$1 interval=$2 pid=$3 deadline
  shift 3
  deadline=$(($(now_ms) + seconds * 1000))
  while :; do
    "$@" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 2; fi
    [ "$(now_ms)" -lt "$deadline" ] || return 1
    sleep "$interval"
  done
}

# port_open HOST PORT: whether something accepts TCP connections on HOST:PORT
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# url_answers URL: whether URL answers with a success status
url_answers() { curl -fsS -o /dev/null "$1" 2>/dev/null; }

# grpc_serving HOST:PORT [GRPCURL_OPTION...]: whether the gRPC health service there answers
# SERVING (grpcurl, in clear text, with the options given)
grpc_serving() {
  grpcurl -plaintext "${@:2}" "$1" grpc.health.v1.Health/Check 2>/dev/null | grep -q SERVING
}

# vfps_serving HTTP_HOST:PORT GRPC_HOST:PORT: whether vfps is ready on both listeners
vfps_serving() { url_answers "$1/readyz" && grpc_serving "$2"; }

# log_has LOG PATTERN: whether the file LOG holds a line matching PATTERN
log_has() { grep -q "$2" "$1" 2>/dev/null; }

# start_java LOG PATTERN ARGS...: starts "$JAVA_HOME/bin/java ARGS..." in the background with its
# output in LOG, waits (up to 2 minutes) until LOG holds PATTERN, and sets STARTED_PID; prints the
# log and fails when the process ends first. The caller's environment is the process's settings.
start_java() {
  local log=$1 pattern=$2
  shift 2
  "$JAVA_HOME/bin/java" "$@" >"$log" 2>&1 &
  STARTED_PID=$!
  wait_for 120 0.5 "$STARTED_PID" log_has "$log" "$pattern" && return 0
  cat "$log" >&2
  return 1
}

# ------------------------------------------------------------------ PostgreSQL

# the prefix that runs a command as the user postgres (an array, not a function, so that $! of a
# command started with & is the command's own pid)
AS_POSTGRES=(setpriv --reuid=postgres --regid=postgres --init-groups --)

# admin_psql ARGS...: psql as an administrator of the machine's PostgreSQL: $ADMIN_PSQL, default
# `runuser -u postgres -- psql`
admin_psql() {
  # shellcheck disable=SC2086
  ${ADMIN_PSQL:-runuser -u postgres -- psql} "$@"
}

# pg_data_directory: the data directory of the admin psql's cluster
pg_data_directory() { admin_psql -A -t -c 'SHOW data_directory'; }

# postmaster_pid DATA_DIRECTORY: the pid of the cluster's postmaster when it runs, else nothing
postmaster_pid() {
  local pid
  pid=$(head -1 "$1/postmaster.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ] && echo "$pid"
  return 0
}

# pg_throwaway_cluster DIRECTORY PORT INITDB_LOG: a new cluster in DIRECTORY, run by the user
# postgres (its superuser, trust authentication), that listens on 127.0.0.1:PORT only with its
# socket in DIRECTORY; not started. PG_BIN holds PostgreSQL's programs.
pg_throwaway_cluster() {
  install -d -o postgres -m 700 "$1"
  "${AS_POSTGRES[@]}" "$PG_BIN/initdb" -D "$1" -U postgres --auth=trust >"$3"
  cat >>"$1/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $2
unix_socket_directories = '$1'
CONF
}

# fresh_database NAME: drops and creates database NAME owned by the role vfps_bench through an
# admin psql ($ADMIN_PSQL, default `runuser -u postgres -- psql`), migrates it with the jar under
# test ($JAR, default target/vfps.jar: an older jar meets the schema it knows), and exports
# ConnectionStrings__PostgreSQL for it.
fresh_database() {
  local name=$1
  admin_psql -q -v ON_ERROR_STOP=1 <<SQL
DROP DATABASE IF EXISTS $name;
SELECT 'CREATE ROLE vfps_bench LOGIN PASSWORD ''vfps_bench'''
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'vfps_bench') \gexec
CREATE DATABASE $name OWNER vfps_bench;
SQL
  export ConnectionStrings__PostgreSQL="Host=${PGHOST_BENCH:-127.0.0.1};Database=$name;Username=vfps_bench;Password=vfps_bench"
  "$JAVA_HOME/bin/java" -jar "${JAR:-target/vfps.jar}" migrate >/dev/null
}

# ------------------------------------------------------------------ tools

# podman_ulimits: the --ulimit options every podman run or build of ours gives: podman's defaults
# ask runc for more open files than some machines allow a container, so the limits are this
# shell's hard limits, at most 65,536 open files and 4,096 processes (the JVM's threads count)
podman_ulimits() {
  local nofile nproc
  nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
  if [ "$nofile" = unlimited ] || [ "$nofile" -gt 65536 ]; then nofile=65536; fi
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt 4096 ]; then nproc=4096; fi
  echo "--ulimit nofile=$nofile:$nofile --ulimit nproc=$nproc:$nproc"
}

# apt_install PACKAGE...: installs the packages with apt-get, quietly (as root)
apt_install() {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# go_tool COMMAND MODULE_PATH@VERSION: makes COMMAND available, when it is not on PATH, with
# `go install MODULE_PATH@VERSION` from the Go module proxy into $GOBIN or ~/go/bin (which it puts
# on PATH); Go is installed with apt-get when missing
go_tool() {
  local gobin=${GOBIN:-$HOME/go/bin}
  case ":$PATH:" in *":$gobin:"*) ;; *) export PATH="$gobin:$PATH" ;; esac
  command -v "$1" >/dev/null && return 0
  command -v go >/dev/null || apt_install golang-go
  say "installing $1 ($2) with go install"
  go install "$2"
}

# python_venv DIRECTORY PIP_ARGUMENTS...: a new virtualenv in DIRECTORY (what was there goes) with
# `pip install PIP_ARGUMENTS`; python3's venv is installed with apt-get when missing
python_venv() {
  local venv=$1
  shift
  if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3 python3-venv
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$@"
}

# ------------------------------------------------------------------ cgroups

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

# cgroup_throttled NAME: the group's CPU periods so far, those in which it was throttled (it had
# used its quota) and the time it was held back, in ns: "periods throttled ns"
cgroup_throttled() {
  if [ "$(cgroup_version)" = 1 ]; then
    awk '/^nr_periods /{p=$2} /^nr_throttled /{t=$2} /^throttled_time /{n=$2} END {print p, t, n}' \
      "/sys/fs/cgroup/cpu/$1/cpu.stat"
  else
    awk '/^nr_periods /{p=$2} /^nr_throttled /{t=$2} /^throttled_usec /{n=$2 * 1000} END {print p, t, n}' \
      "/sys/fs/cgroup/$1/cpu.stat"
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

# ------------------------------------------------------------------ profiling

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

# cpu_seconds PID: the process's user + system CPU so far, in seconds, from /proc
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}
