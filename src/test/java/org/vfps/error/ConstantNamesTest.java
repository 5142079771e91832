package org.vfps.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class ConstantNamesTest {

  private enum Shape {
    CIRCLE,
    RIGHT_TRIANGLE,
    POLYGON_12
  }

  @Test
  void lowerCaseKeepsTheUnderscores() {
    ConstantNames<Shape> names = ConstantNames.lowerCase(Shape.values());

    assertThat(names.of(Shape.CIRCLE)).isEqualTo("circle");
    assertThat(names.of(Shape.RIGHT_TRIANGLE)).isEqualTo("right_triangle");
    assertThat(names.of(Shape.POLYGON_12)).isEqualTo("polygon_12");
  }

  @Test
  void pascalCaseCapitalizesEachWordAndAppendsTheSuffix() {
    assertThat(ConstantNames.pascalCase(Shape.values(), "").of(Shape.RIGHT_TRIANGLE))
        .isEqualTo("RightTriangle");
    assertThat(ConstantNames.pascalCase(Shape.values(), "").of(Shape.POLYGON_12))
        .isEqualTo("Polygon12");
    assertThat(ConstantNames.pascalCase(Shape.values(), "Shape").of(Shape.CIRCLE))
        .isEqualTo("CircleShape");
  }

  @Test
  void findsTheConstantOfEachNameExactly() {
    ConstantNames<Shape> names = ConstantNames.lowerCase(Shape.values());

    for (Shape shape : Shape.values()) {
      assertThat(names.constantOf(names.of(shape), "shape")).isSameAs(shape);
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> names.constantOf("Circle", "shape"))
        .withMessage("unknown shape 'Circle'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> names.constantOf(null, "shape"))
        .withMessage("unknown shape 'null'");
  }
}
