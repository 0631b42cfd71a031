package io.triplerpc.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Path templates as google/api/http.proto defines them, parsed and matched. */
class PathTemplateTest {

  @Test
  void literalsAndOneSegmentVariables() {
    PathTemplate template = PathTemplate.parse("/v1/shelves/{shelf}/books/{book_id}");
    assertEquals(List.of("shelf", "book_id"), template.fieldPaths());
    assertEquals(3, template.literalCount());
    assertEquals(Map.of("shelf", "1", "book_id", "b 2"), template.match("/v1/shelves/1/books/b%202"));
    assertNull(template.match("/v1/shelves/1/books"));
    assertNull(template.match("/v1/shelves/1/books/2/more"));
    assertNull(template.match("/v2/shelves/1/books/2"));
    assertNull(template.match("v1/shelves/1/books/2"), "a path starts with /");
  }

  @Test
  void aVariableOverSeveralSegmentsKeepsItsSlashesEncoded() {
    PathTemplate template = PathTemplate.parse("/v1/{name=shelves/*/books/*}");
    assertEquals(Map.of("name", "shelves/a%2Fb/books/c d"), template.match("/v1/shelves/a%2Fb/books/c%20d"));
    assertNull(template.match("/v1/shelves/a/books"));
    assertNull(template.match("/v1/shelf/a/books/b"), "the variable's literals must match too");
  }

  @Test
  void openApiGivesEachWildcardOfAVariableOfLiteralsItsOwnParameter() {
    PathTemplate book = PathTemplate.parse("/v1/{name=shelves/*/books/*}");
    assertEquals("/v1/shelves/{name.shelves}/books/{name.books}", book.openApiPath());
    assertEquals(List.of("name.shelves", "name.books"), book.openApiSegments("name"));
    PathTemplate archive = PathTemplate.parse("/v1/{name=shelves/*}:archive");
    assertEquals("/v1/shelves/{name.shelves}:archive", archive.openApiPath());
    PathTemplate unnamed = PathTemplate.parse("/v1/{name=*/books/*}/cover");
    assertEquals("/v1/{name.segment}/books/{name.books}/cover", unnamed.openApiPath());
    // One wildcard, or **, stays one parameter: the first is one segment, the second any number.
    PathTemplate shelf = PathTemplate.parse("/v1/shelves/{shelf}");
    assertEquals("/v1/shelves/{shelf}", shelf.openApiPath());
    assertNull(shelf.openApiSegments("shelf"));
    PathTemplate files = PathTemplate.parse("/v1/files/{path=**}");
    assertEquals("/v1/files/{path}", files.openApiPath());
    assertNull(files.openApiSegments("path"));
    assertEquals("^.*$", files.openApiPattern("path"));
  }

  @Test
  void doubleWildcardTakesAnyNumberOfSegments() {
    PathTemplate template = PathTemplate.parse("/v1/files/{path=**}");
    assertEquals(Map.of("path", "a/b/c"), template.match("/v1/files/a/b/c"));
    assertEquals(Map.of("path", ""), template.match("/v1/files/"));
    assertEquals(Map.of("path", "a"), template.match("/v1/files/a"));
    assertNull(template.match("/v2/files/a"));
  }

  @Test
  void aVerbEndsTheLastSegment() {
    PathTemplate template = PathTemplate.parse("/v1/{name=shelves/*}:archive");
    assertEquals(Map.of("name", "shelves/7"), template.match("/v1/shelves/7:archive"));
    assertNull(template.match("/v1/shelves/7"));
    assertNull(template.match("/v1/shelves/7:burn"));
    assertNull(template.match("/v1/shelves/:archive"), "the verb does not stand for the segment");
    // Without a verb in the template, a colon is part of the segment.
    assertEquals(Map.of("id", "7:archive"), PathTemplate.parse("/v1/{id}").match("/v1/7:archive"));
  }

  @Test
  void nestedFieldPaths() {
    PathTemplate template = PathTemplate.parse("/v1/{book.shelf.id}/{book.id=*}");
    assertEquals(List.of("book.shelf.id", "book.id"), template.fieldPaths());
    assertEquals(Map.of("book.shelf.id", "s", "book.id", "b"), template.match("/v1/s/b"));
  }

  @Test
  void malformedEscapesAreRefusedNamingThem() {
    PathTemplate template = PathTemplate.parse("/v1/{id}");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> template.match("/v1/%zz"));
    assertTrue(refused.getMessage().contains("%zz"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> template.match("/v1/abc%2"));
    assertEquals(Map.of("id", "é"), template.match("/v1/%C3%A9"), "escapes are UTF-8");
  }

  @Test
  void malformedTemplatesAreRefusedNamingThem() {
    for (String malformed : List.of("", "v1/a", "/v1/{id", "/v1/{}", "/v1/{a.}", "/v1/{a={b}}", "/v1/**/a",
        "/v1//a", "/v1/{id}/{id}", "/v1/a:", "/v1/a:b/c")) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> PathTemplate.parse(malformed), malformed);
      assertTrue(refused.getMessage().contains("Malformed HTTP path template"), refused.getMessage());
    }
  }
}
