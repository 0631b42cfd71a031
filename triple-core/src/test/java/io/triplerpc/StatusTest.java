package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StatusTest {

  /** The table of gRPC's status codes, doc/statuscodes.md. */
  @ParameterizedTest
  @CsvSource({
      "0, OK",
      "1, CANCELLED",
      "2, UNKNOWN",
      "3, INVALID_ARGUMENT",
      "4, DEADLINE_EXCEEDED",
      "5, NOT_FOUND",
      "6, ALREADY_EXISTS",
      "7, PERMISSION_DENIED",
      "8, RESOURCE_EXHAUSTED",
      "9, FAILED_PRECONDITION",
      "10, ABORTED",
      "11, OUT_OF_RANGE",
      "12, UNIMPLEMENTED",
      "13, INTERNAL",
      "14, UNAVAILABLE",
      "15, DATA_LOSS",
      "16, UNAUTHENTICATED",
  })
  void everyCodeHasItsWireValue(int value, String name) {
    Status.Code code = Status.Code.valueOf(name);
    assertEquals(value, code.value());
    assertSame(code, Status.Code.fromValue(value));
    Status status = Status.fromCodeValue(value);
    assertSame(code, status.code());
    assertSame(code.toStatus(), status);
    assertNull(status.description());
    assertNull(status.cause());
    assertEquals(name, status.toString());
  }

  @Test
  void thereAreExactlySeventeenCodes() {
    assertEquals(17, Status.Code.values().length);
  }

  @Test
  void theConstantsAreTheStatusesOfTheirCodes() {
    assertSame(Status.Code.OK.toStatus(), Status.OK);
    assertSame(Status.Code.DEADLINE_EXCEEDED.toStatus(), Status.DEADLINE_EXCEEDED);
    assertSame(Status.Code.UNAUTHENTICATED.toStatus(), Status.UNAUTHENTICATED);
    assertTrue(Status.OK.isOk());
    assertFalse(Status.CANCELLED.isOk());
  }

  @ParameterizedTest
  @ValueSource(ints = {17, 100, -1, Integer.MAX_VALUE, Integer.MIN_VALUE})
  void numbersOutsideZeroToSixteenAreUnknown(int value) {
    assertSame(Status.Code.UNKNOWN, Status.Code.fromValue(value));
    assertSame(Status.UNKNOWN, Status.fromCodeValue(value));
  }

  @Test
  void aStatusExceptionAnywhereInTheCauseChainGivesItsStatus() {
    Status carried = Status.NOT_FOUND.withDescription("no user 7");
    StatusException exception = carried.asException();
    assertSame(carried, Status.fromThrowable(exception));
    assertSame(carried, Status.fromThrowable(new RuntimeException("wrapped", exception)));
    assertSame(carried, Status.fromThrowable(new CompletionException(new IllegalStateException(exception))));
  }

  @Test
  void otherThrowablesAreUnknownWithTheirMessageAndThemselvesAsCause() {
    IOException failure = new IOException("disk full");
    Status status = Status.fromThrowable(failure);
    assertEquals(Status.Code.UNKNOWN, status.code());
    assertEquals("disk full", status.description());
    assertSame(failure, status.cause());
  }

  @Test
  void aThrowableWithoutAMessageIsDescribedByItsClass() {
    Status status = Status.fromThrowable(new IllegalStateException());
    assertEquals(Status.Code.UNKNOWN, status.code());
    assertEquals("java.lang.IllegalStateException", status.description());
  }

  @Test
  void copiesChangeOneThingAndLeaveTheOriginal() {
    IOException cause = new IOException("io");
    Status described = Status.INTERNAL.withDescription("first").withCause(cause);
    assertNull(Status.INTERNAL.description(), "the shared constant is unchanged");
    assertEquals("first", described.description());
    assertSame(cause, described.cause());
    assertSame(described, described.withDescription("first"));
    assertSame(described, described.withCause(cause));
    assertNull(described.withDescription(null).description());
    assertNull(described.withCause(null).cause());
  }

  @Test
  void augmentingAppendsOnANewLine() {
    assertEquals("more", Status.ABORTED.augmentDescription("more").description());
    assertEquals("first\nmore", Status.ABORTED.withDescription("first").augmentDescription("more").description());
    Status status = Status.ABORTED.withDescription("same");
    assertSame(status, status.augmentDescription(null));
  }

  @Test
  void equalStatusesHaveTheSameCodeDescriptionAndCause() {
    assertEquals(Status.CANCELLED.withDescription("bye"), Status.CANCELLED.withDescription("bye"));
    assertEquals(Status.CANCELLED.withDescription("bye").hashCode(), Status.CANCELLED.withDescription("bye").hashCode());
    assertNotEquals(Status.CANCELLED.withDescription("bye"), Status.ABORTED.withDescription("bye"));
    assertNotEquals(Status.CANCELLED.withDescription("bye"), Status.CANCELLED.withDescription("hi"));
    assertNotEquals(Status.CANCELLED, Status.CANCELLED.withCause(new IOException()));
  }

  @Test
  void anExceptionCarriesTheStatusItsTrailersAndTheCause() {
    IOException cause = new IOException("io");
    Status status = Status.UNAVAILABLE.withDescription("down").withCause(cause);
    StatusException plain = status.asException();
    assertSame(status, plain.status());
    assertEquals("UNAVAILABLE: down", plain.getMessage());
    assertSame(cause, plain.getCause());
    assertTrue(plain.trailers().isEmpty(), "no trailers reads as empty, never null");
    Metadata trailers = new Metadata().put("retry-after", "5");
    assertSame(trailers, status.asException(trailers).trailers());
    assertSame(trailers, new StatusException(status, trailers).trailers());
  }

  @Test
  void statusClassesInitializeInEitherOrder() {
    // Regression: Status.Code's constructor once built Status instances, so touching Code first
    // left Status half-initialized.
    assertEquals("OK", Status.Code.OK.toStatus().toString());
    assertEquals("CANCELLED: bye", Status.CANCELLED.withDescription("bye").toString());
  }
}
