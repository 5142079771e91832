package org.vfps.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class ConstantNumbersTest {

  private enum Shape {
    CIRCLE(0),
    TRIANGLE(3),
    SQUARE(4);

    private final int corners;

    Shape(int corners) {
      this.corners = corners;
    }
  }

  private enum Twins {
    ONE,
    OTHER
  }

  @Test
  void findsTheConstantOfEachNumber() {
    ConstantNumbers<Shape> numbers = new ConstantNumbers<>(Shape.values(), shape -> shape.corners);

    assertThat(numbers.constantOf(0)).contains(Shape.CIRCLE);
    assertThat(numbers.constantOf(3)).contains(Shape.TRIANGLE);
    assertThat(numbers.constantOf(4)).contains(Shape.SQUARE);
  }

  @Test
  void aNumberNoConstantHasIsEmpty() {
    ConstantNumbers<Shape> numbers = new ConstantNumbers<>(Shape.values(), shape -> shape.corners);

    assertThat(numbers.constantOf(1)).isEmpty();
    assertThat(numbers.constantOf(-1)).isEmpty();
    assertThat(numbers.constantOf(Integer.MAX_VALUE)).isEmpty();
  }

  @Test
  void refusesTwoConstantsWithOneNumber() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ConstantNumbers<>(Twins.values(), twin -> 7))
        .withMessage("ONE and OTHER have the same number 7");
  }
}
