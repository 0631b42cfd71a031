package io.triplerpc.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpStatusMappingTest {

  /** The table of gRPC's "HTTP to gRPC Status Code Mapping"; any other status is UNKNOWN. */
  @ParameterizedTest
  @CsvSource({
      "400, INTERNAL",
      "401, UNAUTHENTICATED",
      "403, PERMISSION_DENIED",
      "404, UNIMPLEMENTED",
      "429, UNAVAILABLE",
      "431, UNKNOWN",
      "502, UNAVAILABLE",
      "503, UNAVAILABLE",
      "504, UNAVAILABLE",
      "200, UNKNOWN",
      "302, UNKNOWN",
      "405, UNKNOWN",
      "415, UNKNOWN",
      "500, UNKNOWN",
      "0, UNKNOWN",
  })
  void httpStatusesMapAsTheGrpcSpecSays(int httpStatus, Status.Code code) {
    Status status = HttpStatusMapping.statusForHttp(httpStatus);
    assertEquals(code, status.code());
    assertEquals("HTTP status code " + httpStatus, status.description());
  }
}
