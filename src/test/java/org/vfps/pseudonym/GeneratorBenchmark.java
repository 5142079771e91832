package org.vfps.pseudonym;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.vfps.namespace.GenerationMethod;

/**
 * Operations per second and allocation per operation of each generator, with the lengths the .NET
 * service benchmarks (64, 36 for UUIDs). Run with {@code loadtest/jmh.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class GeneratorBenchmark {

  @Param({
    "SECURE_RANDOM_BASE64URL_ENCODED",
    "SHA256_HEX_ENCODED",
    "UUID4",
    "UUID7",
    "FULL_RANDOM_HEX_ENCODED",
    "FULL_RANDOM_BASE62_ENCODED"
  })
  public String method;

  private PseudonymGenerator generator;
  private int length;

  @Setup
  public void setUp() {
    GenerationMethod generationMethod = GenerationMethod.valueOf(method);
    generator = PseudonymGenerators.forMethod(generationMethod);
    length = generationMethod.fixedLength().orElse(64);
  }

  @Benchmark
  public String generate() {
    return generator.generate("test", length);
  }
}
