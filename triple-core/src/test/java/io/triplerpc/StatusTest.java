package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class StatusTest {

  @Test
  void theSeventeenCodesHaveTheirWireValues() {
    assertEquals(17, Status.Code.values().length);
    for (Status.Code code : Status.Code.values()) {
      assertEquals(code.ordinal(), code.value());
      assertSame(code, Status.fromCodeValue(code.value()).code());
      assertSame(code.toStatus(), Status.fromCodeValue(code.value()));
    }
    assertEquals(16, Status.UNAUTHENTICATED.code().value());
  }

  @Test
  void unknownNumbersAreUnknown() {
    assertSame(Status.Code.UNKNOWN, Status.fromCodeValue(17).code());
    assertSame(Status.Code.UNKNOWN, Status.fromCodeValue(-1).code());
  }

  @Test
  void throwablesMapToTheStatusTheyCarryOrUnknown() {
    StatusException carried = Status.NOT_FOUND.withDescription("no user 7").asException();
    assertSame(carried.status(), Status.fromThrowable(new RuntimeException("wrapped", carried)));
    Status unknown = Status.fromThrowable(new IOException("disk full"));
    assertEquals(Status.Code.UNKNOWN, unknown.code());
    assertEquals("disk full", unknown.description());
  }

  @Test
  void statusClassesInitializeInEitherOrder() {
    // Regression: Status.Code's constructor once built Status instances, so touching Code first
    // left Status half-initialized.
    assertEquals("OK", Status.Code.OK.toStatus().toString());
    assertEquals("CANCELLED: bye", Status.CANCELLED.withDescription("bye").toString());
  }
}
