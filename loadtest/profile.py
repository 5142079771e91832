"""Summarises a collapsed-stack CPU profile (async-profiler's `collapsed` output: one line per
distinct stack, frames root first separated by ';', then the sample count) for
loadtest/profile.sh and loadtest/cold-start.sh: the share of samples by concern, and the top frames
by self and total time, by method, by class and by package.

  python3 loadtest/profile.py new.collapsed new.ghz.json new     # a hot path under ghz
  python3 loadtest/profile.py --startup jar.collapsed - jar       # exec to the first answer
"""

import collections
import json
import re
import sys

TOP = 20

# concerns, tried on each frame from the leaf towards the root; the innermost frame that matches
# one decides the sample's concern (see TRANSPARENT)
CONCERNS = [
    ("GC", r"^(GCTaskThread|G1|SerialHeap|DefNewGeneration|TenuredGeneration|MarkSweep|SerialFullGC|"
           r"CollectedHeap::|Copy::|OopOopIterate|ScavengeHelper|YoungGC|VM_GenCollect)"),
    ("JIT compiler", r"^(C1_|C2Compiler|Compile::|CompileBroker|Compilation::|LinearScan|"
                     r"GraphBuilder|Parse::|PhaseIdealLoop|PhaseChaitin|Matcher::)"),
    ("SecureRandom", r"^(sun/security/provider/(NativePRNG|SecureRandom|DRBG|SHA|HashDrbg)|"
                     r"java/security/SecureRandom)"),
    # javax/crypto below the sealer only: the TLS of the database's connections uses it too
    ("sealing (vfps seal: HMAC, AES-GCM)", r"^org/vfps/seal/"),
    ("meters (Micrometer, CallObserver)", r"^(io/micrometer/|org/vfps/metrics/|org/vfps/grpc/CallObserver|"
                                          r"io/vertx/micrometer/)"),
    ("logging, audit", r"^(ch/qos/logback/|org/slf4j/|org/vfps/access/Audit)"),
    ("protobuf", r"^com/google/protobuf/"),
    ("pg client", r"^io/vertx/(pgclient|sqlclient)/"),
    ("vfps write coalescer", r"^org/vfps/storage/(WriteCoalescer|Coalescer)"),
    ("vfps domain and storage", r"^org/vfps/(pseudonym|namespace|storage|cache|access)/"),
    ("Caffeine", r"^com/github/benmanes/caffeine/"),
    # the gRPC edge and the table of methods it binds (calls and message mappings)
    ("vfps gRPC binding", r"^org/vfps/(grpc|rpc)/"),
    ("vertx-grpc", r"^io/vertx/grpc/"),
    ("HTTP/2 (Netty codec, Vert.x HTTP)", r"^(io/netty/handler/codec/http2/|io/vertx/core/http/|"
                                          r"io/vertx/core/http/impl/)"),
    ("Vert.x futures and context", r"^io/vertx/core/(impl/future|impl/ContextImpl|impl/EventLoopContext|"
                                   r"impl/ContextInternal|Future|Promise|internal/)"),
    ("Netty I/O (epoll, buffers, syscalls)", r"^(io/netty/|sun/nio/|epoll|__libc_|__GI_|__write|__read|"
                                             r"__send|__recv|writev|readv|sys_|do_syscall|entry_SYSCALL)"),
    ("kernel", r"^\[k\]|^(tcp_|ip_|__tcp|__ip|__dev|net_|sock_|skb_|__softirq|__x64_sys|__schedule|"
               r"schedule|finish_task_switch|futex|__futex|do_futex)"),
    ("JDK", r"^(java/|jdk/|sun/)"),
    ("JVM (interpreter, runtime)", r"^(Interpreter|JavaThread|SharedRuntime|Runtime1|OptoRuntime|"
                                   r"ObjectMonitor|ObjectSynchronizer|InstanceKlass|Klass|Method::|"
                                   r"JVM_|Unsafe_|os::|Thread::|VMThread|Monitor::|Mutex::)"),
]

# what runs before the first answer, by library; tried from the leaf towards the root as well, so
# that class loading is charged to the library whose code asked for it
STARTUP = [
    ("HAPI FHIR (context, first parse)", r"^(ca/uhn/fhir/|org/hl7/fhir/)"),
    ("REST contract (vertx-openapi, JSON schema)", r"^io/vertx/(openapi|json/schema|ext/web/openapi)/"),
    ("Flyway", r"^org/flywaydb/"),
    ("PostgreSQL JDBC driver", r"^org/postgresql/"),
    ("embedded PostgreSQL", r"^io/zonky/"),
    ("logback, SLF4J", r"^(ch/qos/logback/|org/slf4j/)"),
    ("Hazelcast", r"^com/hazelcast/"),
    ("Micrometer, Prometheus", r"^(io/micrometer/|io/prometheus/|io/vertx/micrometer/)"),
    ("OpenTelemetry", r"^io/opentelemetry/"),
    ("protobuf, gRPC descriptors", r"^(com/google/protobuf/|io/vertx/grpc/)"),
    ("vfps configuration", r"^org/vfps/config/"),
    ("vfps start-up chain", r"^org/vfps/"),
    ("Vert.x web, pg client", r"^io/vertx/(ext/web|pgclient|sqlclient)/"),
    ("Vert.x core, Netty", r"^(io/vertx/core/|io/netty/)"),
    ("Jackson", r"^com/fasterxml/"),
    ("GC", CONCERNS[0][1]),
    ("JIT compiler", CONCERNS[1][1]),
    ("JVM class loading and linking", r"^(ClassLoader|SystemDictionary|ClassFileParser|ClassLoaderData|"
                                      r"Rewriter|Verifier|ClassVerifier|LinkResolver|InstanceKlass::link|"
                                      r"java/lang/ClassLoader|jdk/internal/loader/|java/util/zip/|"
                                      r"java/util/jar/|ZIP_|inflate)"),
    ("JDK", r"^(java/|jdk/|sun/)"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in CONCERNS]
TRANSPARENT = {"JDK", "JVM (interpreter, runtime)", "kernel", "JVM class loading and linking"}


def method(frame):
    return re.sub(r"_\[[a-z0-9]\]$", "", frame)


def klass(frame):
    frame = method(frame)
    return frame.rsplit(".", 1)[0] if "/" in frame and "." in frame else frame


def package(frame):
    frame = klass(frame)
    return frame.rsplit("/", 1)[0] + "/" if "/" in frame else frame


def main():
    global COMPILED
    arguments = sys.argv[1:]
    if arguments[0] == "--startup":
        COMPILED = [(name, re.compile(pattern)) for name, pattern in STARTUP]
        arguments = arguments[1:]
    collapsed, ghz_json, label = arguments
    stacks = []
    for line in open(collapsed):
        line = line.rstrip()
        if not line:
            continue
        stack, count = line.rsplit(" ", 1)
        stacks.append((stack.split(";"), int(count)))
    total = sum(count for _, count in stacks)
    calls = json.load(open(ghz_json)).get("count", 0) if ghz_json != "-" else 0
    print(f"\n### {label}: {total:,} samples" + (f", {calls:,} calls" if calls else "") + "\n")

    concerns = collections.Counter()
    for frames, count in stacks:
        matches = [next((n for n, p in COMPILED if p.search(method(frame))), None)
                   for frame in reversed(frames)]
        # the JDK, the JVM's runtime and the kernel work for whoever called them: the sample goes
        # to the innermost frame of another concern, and to them only when there is none
        concern = next((m for m in matches if m and m not in TRANSPARENT), None)
        concern = concern or next((m for m in matches if m), "other")
        concerns[concern] += count
    print("| concern (innermost matching frame) | share of samples |")
    print("|---|---:|")
    for concern, count in concerns.most_common():
        print(f"| {concern} | {count / total:.1%} |")

    for title, key in (("method", method), ("class", klass), ("package", package)):
        self_time = collections.Counter()
        total_time = collections.Counter()
        for frames, count in stacks:
            self_time[key(frames[-1])] += count
            for name in {key(frame) for frame in frames}:
                total_time[name] += count
        print(f"\nTop {TOP} by {title}, self | total\n")
        print(f"| {title} (self) | self | {title} (total) | total |")
        print("|---|---:|---|---:|")
        selfs = self_time.most_common(TOP)
        totals = [t for t in total_time.most_common(TOP * 4)
                  if not re.match(r"^(\[|java/lang/Thread|io/netty/util/concurrent/"
                                  r"(SingleThreadEventExecutor|FastThreadLocalRunnable)|"
                                  r"io/netty/util/internal/ThreadExecutorMap|start_thread|thread_native_entry|"
                                  r"Thread::call_run|JavaThread::|JavaMain|JavaCalls)", t[0])][:TOP]
        for i in range(TOP):
            left = f"{selfs[i][0]} | {selfs[i][1] / total:.1%}" if i < len(selfs) else " | "
            right = f"{totals[i][0]} | {totals[i][1] / total:.1%}" if i < len(totals) else " | "
            print(f"| {left} | {right} |")


if __name__ == "__main__":
    main()
