package io.triplerpc.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** JAX-RS and Spring Web path templates, as routes serve them. */
class WebPathsTest {

  @Test
  void variablesWithAndWithoutExpressions() {
    WebPaths.Converted path = WebPaths.convert("/users/{id: [0-9]+}/posts/{post-id}");
    assertEquals(Map.of("id", "id", "post-id", "v1"), path.keys());
    assertEquals(Map.of("id", "42", "v1", "p"), path.template().match("/users/42/posts/p"));
    assertNull(path.template().match("/users/ada/posts/p"), "the expression is matched in full");
    assertEquals(Map.of("id", "7"), WebPaths.convert("/a/{id:\\d{1,3}}").template().match("/a/7"), "braces inside");
    assertNull(WebPaths.convert("/a/{id:\\d{1,3}}").template().match("/a/7777"));
  }

  @Test
  void catchAllsSpanSegments() {
    assertEquals(Map.of("path", "a/b c"), WebPaths.convert("/files/{*path}").template().match("/files/a/b%20c"));
    assertEquals(Map.of("rest", "x/y"), WebPaths.convert("/r/{rest: .+}").template().match("/r/x/y"));
  }

  @Test
  void operatorsInLiteralsAreLiterals() {
    PathTemplate template = WebPaths.convert("/users:search/a*b").template();
    assertEquals(Map.of(), template.match("/users:search/a*b"));
    assertNull(template.match("/users:search/ab"));
  }

  @Test
  void whatCannotBeServedIsRefused() {
    for (String path : new String[] {"/files/{name}.{ext}", "/a/{*rest}/b", "/a/{id", "/a/{}", "/a/{id}/{id}",
        "/a/{id: [}"}) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> WebPaths.convert(path));
      assertTrue(refused.getMessage().contains(path), refused.getMessage());
    }
  }
}
