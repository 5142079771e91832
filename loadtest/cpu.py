"""Runs a load generator (ghz, pgbench, wrk) and measures where the CPU went while it ran, for
loadtest/benchmark.sh:

  python3 loadtest/cpu.py --out run.cpu.json [--pid SERVICE_PID] [--postmaster PID --database DB]
                          -- ghz ...

Written to --out as JSON, in CPU seconds (utime + stime, from /proc):

- service: the processes given with --pid (the JVM under test), read before and after the run;
- service_writes: the write system calls of the processes given with --pid (syscw in
  /proc/<pid>/io, before and after the run; null where that file cannot be read): each socket
  write of a reply or of a statement to PostgreSQL is one;
- service_jit: of that, the JVM's compiler threads (C1 and C2, named "C1 CompilerThre" and
  "C2 CompilerThre" in /proc/<pid>/task). The JVM starts and stops them as the compile queue
  grows and shrinks, so they are sampled like PostgreSQL's backends (below). What the service
  costs once the JIT has compiled its paths is service - service_jit, steadier on a small machine
  where C2 compiles the event loop's outermost methods after tens of thousands of calls;
- pg_backends: the PostgreSQL backends of database --database, i.e. the children of the
  postmaster --postmaster whose process title names that database. Backends exit with their client
  and take their CPU figures with them, so every child of the postmaster is sampled every
  --interval seconds while the run goes on; a process seen first during the run counts from 0 (a
  forked backend starts at 0), one that exits keeps its last sample (the CPU of its last interval is
  lost: a few ms per exiting backend). Backends of other databases are left out;
- pg_background: the cluster's other children (WAL writer, checkpointer, background writer,
  autovacuum, ...), which serve every database of the cluster, so other work on it shows here too;
- load: the load generator itself and its children (their rusage when they exit);
- sampler: this script's own CPU;
- machine_busy and machine_total: the whole machine (/proc/stat, all cores), so that what the
  figures above leave out (other processes on the machine) can be seen.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
# "postgres: 15/main: user database 127.0.0.1(45678) idle" (the cluster name part is optional)
BACKEND = re.compile(r"^postgres: (?:[^:]*: )?(\S+) (\S+) (?:\S+\(\d+\)|\[local\])")


def stat(pid):
    """(CPU ticks, start time, parent pid) of a process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # after the command: state ppid ... utime (14th field of the line) stime ... starttime (22nd)
    return int(fields[11]) + int(fields[12]), int(fields[19]), int(fields[1])


def title(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def writes(pid):
    """The write system calls a process made so far, or None where /proc/<pid>/io is not ours."""
    try:
        with open(f"/proc/{pid}/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("syscw:"))
    except (OSError, StopIteration):
        return None


def machine():
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = values[:8]
    busy = user + nice + system + irq + softirq + steal
    return busy, busy + idle + iowait


class CompilerThreads:
    """The JIT's threads of the given JVMs, by (thread id, start time): first and last CPU sample."""

    def __init__(self, pids):
        self.pids = pids
        self.threads = {}

    def sample(self, first=False):
        for pid in self.pids:
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except FileNotFoundError:
                continue
            for tid in tids:
                try:
                    with open(f"/proc/{pid}/task/{tid}/comm") as f:
                        name = f.read().strip()
                except (FileNotFoundError, ProcessLookupError):
                    continue
                if not re.match(r"C[12] CompilerThre", name):
                    continue
                now = stat(f"{pid}/task/{tid}")
                if now is None:
                    continue
                ticks, start, _ = now
                known = self.threads.setdefault((pid, tid, start), {"first": ticks if first else 0})
                known["last"] = ticks

    def seconds(self):
        return sum(t["last"] - t["first"] for t in self.threads.values()) / TICK


class Postgres:
    """Every child of a postmaster, by (pid, start time), with its first and last CPU sample."""

    def __init__(self, postmaster, database):
        self.postmaster = postmaster
        self.database = database
        self.processes = {}

    def sample(self, first=False):
        if not self.postmaster:
            return
        for pid in self.children():
            now = stat(pid)
            if now is None or now[2] != self.postmaster:
                continue
            ticks, start, _ = now
            key = (pid, start)
            match = BACKEND.match(title(pid))
            if match:
                kind = "ours" if match.group(2) == self.database else "other"
            else:
                kind = "background"
            known = self.processes.get(key)
            if known is None:
                known = self.processes[key] = {"first": ticks if first else 0, "kind": kind}
            known["last"] = ticks
            if known["kind"] != "ours":
                # a new backend's title names its database only once it has authenticated
                known["kind"] = kind

    def children(self):
        """The postmaster's children: its children file where the kernel has one, else /proc."""
        try:
            with open(f"/proc/{self.postmaster}/task/{self.postmaster}/children") as f:
                return [int(pid) for pid in f.read().split()]
        except FileNotFoundError:
            return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]

    def seconds(self, kind):
        return sum(p["last"] - p["first"] for p in self.processes.values() if p["kind"] == kind) / TICK


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--pid", type=int, action="append", default=[])
    parser.add_argument("--postmaster", type=int, default=0)
    parser.add_argument("--database", default="")
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    postgres = Postgres(args.postmaster, args.database)
    compilers = CompilerThreads(args.pid)
    compilers.sample(first=True)
    service_before = {pid: (stat(pid) or (0,))[0] for pid in args.pid}
    service_last = dict(service_before)
    writes_before = {pid: writes(pid) for pid in args.pid}
    postgres.sample(first=True)
    busy_before, total_before = machine()
    self_before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.monotonic()

    child = subprocess.Popen(command)
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(args.interval)
        postgres.sample()
        compilers.sample()
        for service in args.pid:
            now = stat(service)
            if now:
                service_last[service] = now[0]
    wall = time.monotonic() - started
    postgres.sample()
    compilers.sample()
    for service in args.pid:
        now = stat(service)
        if now:
            service_last[service] = now[0]
    writes_after = {pid: writes(pid) for pid in args.pid}
    busy_after, total_after = machine()
    self_after = resource.getrusage(resource.RUSAGE_SELF)

    figures = {
        "wall": wall,
        "cores": os.cpu_count(),
        "service": sum(service_last[p] - service_before[p] for p in args.pid) / TICK,
        "service_jit": compilers.seconds(),
        "service_writes": None
        if None in writes_before.values() or None in writes_after.values()
        else sum(writes_after[p] - writes_before[p] for p in args.pid),
        "pg_backends": postgres.seconds("ours"),
        "pg_background": postgres.seconds("background"),
        "load": usage.ru_utime + usage.ru_stime,
        "sampler": (self_after.ru_utime + self_after.ru_stime)
        - (self_before.ru_utime + self_before.ru_stime),
        "machine_busy": (busy_after - busy_before) / TICK,
        "machine_total": (total_after - total_before) / TICK,
    }
    with open(args.out, "w") as f:
        json.dump(figures, f)
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 1)


if __name__ == "__main__":
    main()
