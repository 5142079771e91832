package org.vfps.seal;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time per call of what a sealed namespace adds to a call, for a value of 32 characters as
 * loadtest/benchmark.sh sends: the blind index (every lookup by value), the blind index and the
 * seal (every Create, of a new value or a known one), and the opening (every reverse lookup). Run
 * with {@code BENCHMARK=SealerBenchmark loadtest/jmh.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class SealerBenchmark {

  private static final String NAMESPACE = "bench-sealed";
  private static final String ORIGINAL_VALUE = "Qm9uam91ciBsZSBtb25kZSBlbnRpZXIh";

  private Sealer sealer;
  private String blindIndex;
  private byte[] sealed;

  @Setup
  public void setUp() {
    sealer = new Sealer(SealingKeys.generate());
    blindIndex = sealer.blindIndex(NAMESPACE, ORIGINAL_VALUE);
    sealed = sealer.seal(NAMESPACE, blindIndex, ORIGINAL_VALUE);
  }

  @Benchmark
  public String blindIndex() {
    return sealer.blindIndex(NAMESPACE, ORIGINAL_VALUE);
  }

  @Benchmark
  public byte[] blindIndexAndSeal() {
    return sealer.seal(NAMESPACE, sealer.blindIndex(NAMESPACE, ORIGINAL_VALUE), ORIGINAL_VALUE);
  }

  @Benchmark
  public String open() throws SealingException {
    return sealer.open(NAMESPACE, blindIndex, sealed);
  }
}
