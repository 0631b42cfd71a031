package io.triplerpc.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Query strings as forms decode them, and Go's duration form, which grpc-gateway's queries use. */
class QueryAndValuesTest {

  @Test
  void aQueryKeepsEveryValueOfEachNameInOrder() {
    assertEquals(Map.of("a", List.of("1", "3"), "b", List.of("x y"), "c", List.of(""), "d[k]", List.of("é")),
        QueryParameters.parse("a=1&b=x+y&a=3&c&&d%5Bk%5D=%C3%A9"));
    assertEquals(Map.of(), QueryParameters.parse(""));
  }

  @Test
  void aMalformedQueryIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> QueryParameters.parse("a=%zz"));
    assertThrows(IllegalArgumentException.class, () -> QueryParameters.parse("a=1;b=2"));
  }

  @Test
  void goDurationsBecomeProtobufSeconds() {
    assertEquals("90s", FieldValues.goDuration("1m30s"));
    assertEquals("3723.5s", FieldValues.goDuration("1h2m3.5s"));
    assertEquals("0.3s", FieldValues.goDuration("300ms"));
    assertEquals("-0.000001s", FieldValues.goDuration("-1us"));
    assertEquals("1.5s", FieldValues.goDuration("1.5s"));
    for (String malformed : List.of("", "-", "1", "1x", "h", "1h-2m")) {
      assertThrows(IllegalArgumentException.class, () -> FieldValues.goDuration(malformed), malformed);
    }
  }
}
