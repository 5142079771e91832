"""Prints the benchmark tables from the outputs of loadtest/benchmark.sh (ghz JSON, wrk's report
line, pgbench's per-transaction logs, loadtest/cpu.py's figures): requests per second, latency
percentiles, errors and the ratio of each workload to pgbench running the single-row upsert at the
same concurrency; CPU per request of the service, of PostgreSQL's backends and of the load
generator, each against its floor; and where the machine's cores went during each run."""

import glob
import json
import os
import re
import sys

work, requests, concurrency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = []


def ghz(name):
    path = os.path.join(work, name + ".json")
    if not os.path.exists(path):
        return None
    report = json.load(open(path))
    pct = {p["percentage"]: p["latency"] / 1e6 for p in report.get("latencyDistribution") or []}
    ok = (report.get("statusCodeDistribution") or {}).get("OK", 0)
    return dict(rps=report["rps"], p50=pct.get(50), p95=pct.get(95), p99=pct.get(99),
                errors=report["count"] - ok, count=report["count"])


def wrk(name):
    path = os.path.join(work, name + ".wrk")
    if not os.path.exists(path):
        return None
    match = re.search(r"^VFPS_WRK (\{.*\})$", open(path).read(), re.MULTILINE)
    if not match:
        return None
    report = json.loads(match.group(1))
    return dict(rps=report["requests"] / report["seconds"], p50=report["p50"] / 1e3,
                p95=report["p95"] / 1e3, p99=report["p99"] / 1e3, errors=report["errors"],
                count=report["requests"])


def pgbench(name):
    folder = os.path.join(work, name)
    logs = glob.glob(os.path.join(folder, "pgbench_log.*"))
    if not logs:
        return None
    latencies, starts, ends = [], [], []
    for log in logs:
        for line in open(log):
            fields = line.split()
            latency_us = int(fields[2])
            end = int(fields[4]) + int(fields[5]) / 1e6
            latencies.append(latency_us / 1e3)
            ends.append(end)
            starts.append(end - latency_us / 1e6)
    latencies.sort()
    summary = open(os.path.join(folder, "summary.txt")).read()
    tps = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", summary)
    failed = re.search(r"number of failed transactions: (\d+)", summary)

    def pct(p):
        return latencies[min(len(latencies) - 1, int(len(latencies) * p / 100))]

    return dict(rps=float(tps.group(1)) if tps else len(latencies) / (max(ends) - min(starts)),
                p50=pct(50), p95=pct(95), p99=pct(99),
                errors=int(failed.group(1)) if failed else 0, count=len(latencies))


def cpu(name):
    path = os.path.join(work, name + ".cpu.json")
    return json.load(open(path)) if os.path.exists(path) else None


baseline = {"new": pgbench("pgbench-new"), "known": pgbench("pgbench-known")}
workloads = [
    ("gRPC Create, new values (ghz)", "grpc-new", ghz("grpc-new"), "new"),
    ("gRPC Create, known values (ghz)", "grpc-known", ghz("grpc-known"), "known"),
    ("gRPC Create, new values, caches on (ghz)", "grpc-new-cached", ghz("grpc-new-cached"), "new"),
    ("gRPC Create, known values, pseudonym cache hits (ghz)", "grpc-known-cached",
     ghz("grpc-known-cached"), "known"),
    ("gRPC Get, known pseudonyms (ghz)", "grpc-get", ghz("grpc-get"), None),
    ("gRPC Get, known pseudonyms, caches on (ghz)", "grpc-get-cached", ghz("grpc-get-cached"),
     None),
    ("REST POST .../pseudonyms, new values (wrk)", "rest-new", wrk("rest-new"), "new"),
    ("REST POST .../pseudonyms, known values (wrk)", "rest-known", wrk("rest-known"), "known"),
    ("FHIR $create-pseudonym, new values (wrk)", "fhir-new", wrk("fhir-new"), "new"),
    ("gRPC Create, new values, sealed namespace (ghz)", "grpc-new-sealed", ghz("grpc-new-sealed"),
     "new"),
    ("gRPC Create, new values, plain namespace, replica with keys (ghz)", "grpc-new-keyed-plain",
     ghz("grpc-new-keyed-plain"), "new"),
    ("gRPC Create, known values, sealed namespace (ghz)", "grpc-known-sealed",
     ghz("grpc-known-sealed"), "known"),
    ("gRPC Create, known values, plain namespace, replica with keys (ghz)",
     "grpc-known-keyed-plain", ghz("grpc-known-keyed-plain"), "known"),
    ("gRPC Get, known pseudonyms, sealed namespace (ghz)", "grpc-get-sealed",
     ghz("grpc-get-sealed"), None),
    ("gRPC Get, known pseudonyms, plain namespace, replica with keys (ghz)",
     "grpc-get-keyed-plain", ghz("grpc-get-keyed-plain"), None),
    ("floor: bare vertx-grpc server, canned reply (ghz)", "grpc-floor", ghz("grpc-floor"), None),
    ("pgbench single-row upsert, new keys", "pgbench-new", baseline["new"], None),
    ("pgbench single-row upsert, existing keys", "pgbench-known", baseline["known"], None),
]

print(f"\n{requests:,} requests per ghz/pgbench workload, concurrency {concurrency}, "
      f"{os.cpu_count()} cores\n")
print("| workload | requests/s | p50 ms | p95 ms | p99 ms | errors | ratio to pgbench |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label, name, result, against in workloads:
    if result is None:
        continue
    base = baseline.get(against) if against else None
    if name.startswith("pgbench"):
        ratio = "1 (baseline)"
    else:
        ratio = f"{result['rps'] / base['rps']:.2f}x" if base else "-"
    print(f"| {label} | {result['rps']:,.0f} | {result['p50']:.2f} | {result['p95']:.2f} | "
          f"{result['p99']:.2f} | {result['errors']} | {ratio} |")


def per_request(name, result, key):
    """µs of CPU per request; key "service_compiled" is the service without its JIT's threads."""
    figures = cpu(name)
    if figures is None or result is None or not result["count"]:
        return None
    if key == "service_compiled":
        if "service_jit" not in figures:
            return None
        return (figures["service"] - figures["service_jit"]) / result["count"] * 1e6
    return figures[key] / result["count"] * 1e6


def writes_per_request(name, result):
    """The service's write system calls per request (replies and statements), or None."""
    figures = cpu(name)
    if figures is None or result is None or not result["count"]:
        return None
    if figures.get("service_writes") is None:
        return None
    return figures["service_writes"] / result["count"]


print("\nCPU per request, µs (utime + stime from /proc; PostgreSQL: the backends of the "
      "benchmark's database)\n")
print("| workload | service | of it the JIT | PostgreSQL backends | load generator | service / floor |"
      " without the JIT, / floor without it | service writes per request |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
floor = per_request("grpc-floor", ghz("grpc-floor"), "service")
floor_compiled = per_request("grpc-floor", ghz("grpc-floor"), "service_compiled")


def us(value):
    return "-" if value is None else f"{value:,.0f}"


for label, name, result, against in workloads:
    if result is None or cpu(name) is None:
        continue
    service = per_request(name, result, "service") if not name.startswith("pgbench") else None
    compiled = (per_request(name, result, "service_compiled")
                if not name.startswith("pgbench") else None)
    jit = service - compiled if service is not None and compiled is not None else None
    against_floor = f"{service / floor:.2f}x" if service is not None and floor else "-"
    compiled_against = (f"{compiled / floor_compiled:.2f}x"
                        if compiled is not None and floor_compiled else "-")
    written = writes_per_request(name, result) if not name.startswith("pgbench") else None
    print(f"| {label} | {us(service)} | {us(jit)} | {us(per_request(name, result, 'pg_backends'))} | "
          f"{us(per_request(name, result, 'load'))} | {against_floor} | {compiled_against} | "
          f"{'-' if written is None else f'{written:.2f}'} |")

pg_floor = per_request("pgbench-new", baseline["new"], "pg_backends")
print("\nAgainst the floors (issue 13's figures)\n")
print("| figure | value | floor | ratio |")
print("|---|---:|---:|---:|")
for label, name, key, base, base_label in [
    ("service CPU per cache-hit Create", "grpc-known-cached", "service", floor,
     "bare vertx-grpc server"),
    ("service CPU per new-value Create", "grpc-new", "service", floor, "bare vertx-grpc server"),
    ("service CPU per new-value Create, caches on", "grpc-new-cached", "service", floor,
     "bare vertx-grpc server"),
    ("the same three without the JIT's threads: cache-hit Create", "grpc-known-cached",
     "service_compiled", floor_compiled, "bare vertx-grpc server, without its JIT"),
    ("... new-value Create", "grpc-new", "service_compiled", floor_compiled,
     "bare vertx-grpc server, without its JIT"),
    ("... new-value Create, caches on", "grpc-new-cached", "service_compiled", floor_compiled,
     "bare vertx-grpc server, without its JIT"),
    ("PostgreSQL CPU per new pseudonym", "grpc-new", "pg_backends", pg_floor,
     "pgbench single-row upsert"),
]:
    value = per_request(name, ghz(name), key)
    if value is None or not base:
        continue
    print(f"| {label} | {value:,.0f} µs | {base:,.0f} µs ({base_label}) | {value / base:.2f}x |")
new, pgbench_new = ghz("grpc-new"), baseline["new"]
if new and pgbench_new:
    print(f"| new-value Creates per second / pgbench upserts per second | {new['rps']:,.0f} | "
          f"{pgbench_new['rps']:,.0f} | {new['rps'] / pgbench_new['rps']:.2f}x |")

print("\nSealed originals against plain, CPU per request, µs (caches off; \"same JVM\": the plain "
      "namespace of the replica with keys; \"first start\": the replica without keys; sealed and "
      "plain each pooled over two runs, measured sealed, plain, plain, sealed)\n")
print("| call | sealed: service | without the JIT | PostgreSQL | plain, same JVM: service | "
      "without the JIT | PostgreSQL | sealed / plain, service | without the JIT | PostgreSQL | "
      "plain, first start: service | without the JIT | sealed / first start, service | "
      "without the JIT |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")


def ratio(value, base):
    return "-" if value is None or not base else f"{value / base:.2f}x"


def pooled(names, key):
    """µs of CPU per request over the runs named, as if they were one; None if one is missing."""
    figures = [per_request(name, ghz(name), key) for name in names]
    counts = [(ghz(name) or {}).get("count") for name in names]
    if any(value is None for value in figures) or not all(counts):
        return None
    return sum(value * count for value, count in zip(figures, counts)) / sum(counts)


for label, call in [("Create, new values", "new"), ("Create, known values", "known"),
                    ("Get (reverse lookup)", "get")]:
    figures = {}
    for kind, names in [("sealed", [f"grpc-{call}-sealed", f"grpc-{call}-sealed-again"]),
                        ("plain", [f"grpc-{call}-keyed-plain", f"grpc-{call}-keyed-plain-again"]),
                        ("first", [f"grpc-{call}"])]:
        figures[kind] = [pooled(names, key)
                         for key in ("service", "service_compiled", "pg_backends")]
    sealed, plain, first = figures["sealed"], figures["plain"], figures["first"]
    if sealed[0] is None:
        continue
    print(f"| {label} | {us(sealed[0])} | {us(sealed[1])} | {us(sealed[2])} | {us(plain[0])} | "
          f"{us(plain[1])} | {us(plain[2])} | {ratio(sealed[0], plain[0])} | "
          f"{ratio(sealed[1], plain[1])} | {ratio(sealed[2], plain[2])} | {us(first[0])} | "
          f"{us(first[1])} | {ratio(sealed[0], first[0])} | {ratio(sealed[1], first[1])} |")

print("\nWhere the cores went, CPU seconds during each run (the machine: /proc/stat, all cores; "
      "PostgreSQL background: WAL writer, checkpointer and the like, shared with anything else "
      "on the cluster; other: every other process on the machine)\n")
print("| workload | wall s | machine capacity | service | PostgreSQL backends | "
      "PostgreSQL background | load generator | sampler | other | idle |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for label, name, result, against in workloads:
    figures = cpu(name)
    if figures is None:
        continue
    ours = sum(figures[k] for k in ("service", "pg_backends", "pg_background", "load", "sampler"))
    other = max(0.0, figures["machine_busy"] - ours)
    idle = figures["machine_total"] - figures["machine_busy"]
    print(f"| {label} | {figures['wall']:.1f} | {figures['machine_total']:.1f} | "
          f"{figures['service']:.1f} | {figures['pg_backends']:.1f} | "
          f"{figures['pg_background']:.1f} | {figures['load']:.1f} | {figures['sampler']:.1f} | "
          f"{other:.1f} | {idle:.1f} |")
