"""Prints the benchmark table from the outputs of loadtest/benchmark.sh (ghz JSON, wrk's report
line, pgbench's per-transaction logs): requests per second, latency percentiles, errors and the
ratio of each workload to pgbench running the single-row upsert at the same concurrency."""

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


baseline = {"new": pgbench("pgbench-new"), "known": pgbench("pgbench-known")}
workloads = [
    ("gRPC Create, new values (ghz)", ghz("grpc-new"), "new"),
    ("gRPC Create, known values (ghz)", ghz("grpc-known"), "known"),
    ("REST POST .../pseudonyms, new values (wrk)", wrk("rest-new"), "new"),
    ("REST POST .../pseudonyms, known values (wrk)", wrk("rest-known"), "known"),
    ("FHIR $create-pseudonym, new values (wrk)", wrk("fhir-new"), "new"),
    ("pgbench single-row upsert, new keys", baseline["new"], None),
    ("pgbench single-row upsert, existing keys", baseline["known"], None),
]

print(f"\n{requests:,} requests per ghz/pgbench workload, concurrency {concurrency}, "
      f"{os.cpu_count()} cores\n")
print("| workload | requests/s | p50 ms | p95 ms | p99 ms | errors | ratio to pgbench |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, result, against in workloads:
    if result is None:
        continue
    base = baseline.get(against) if against else None
    ratio = f"{result['rps'] / base['rps']:.2f}x" if base else "1 (baseline)" if not against else "-"
    print(f"| {name} | {result['rps']:,.0f} | {result['p50']:.2f} | {result['p95']:.2f} | "
          f"{result['p99']:.2f} | {result['errors']} | {ratio} |")
