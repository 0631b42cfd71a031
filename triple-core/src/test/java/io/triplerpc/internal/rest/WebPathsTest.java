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
    assertEquals(Map.of("id", new WebPaths.Variable("id", null, null, null), "post-id",
        new WebPaths.Variable("v1", null, null, null)),
        path.variables());
    assertEquals(Map.of("id", "42", "v1", "p"), path.template().match("/users/42/posts/p"));
    assertNull(path.template().match("/users/ada/posts/p"), "the expression is matched in full");
    assertEquals(Map.of("id", "7"), WebPaths.convert("/a/{id:\\d{1,3}}").template().match("/a/7"), "braces inside");
    assertNull(WebPaths.convert("/a/{id:\\d{1,3}}").template().match("/a/7777"));
  }

  @Test
  void variablesShareASegmentWithTextAndEachOther() {
    // Dubbo's Spring sample: /get/reg/{name:[a-z-]+}-{version:\d\.\d\.\d}{ext:\.[a-z]+}.
    WebPaths.Converted path = WebPaths.convert("/reg/{name:[a-z-]+}-{version:\\d\\.\\d\\.\\d}{ext:\\.[a-z]+}/x");
    Map<String, String> values = path.template().match("/reg/dubbo-rest-3.3.6.jar/x");
    assertEquals("dubbo-rest", path.variables().get("name").valueIn(values));
    assertEquals("3.3.6", path.variables().get("version").valueIn(values));
    assertEquals(".jar", path.variables().get("ext").valueIn(values));
    assertNull(path.template().match("/reg/Dubbo-3.3.6.jar/x"), "each expression is matched");
    assertNull(path.template().match("/reg/dubbo-3.3.jar/x"));
    // Without expressions, each is one or more characters other than /, the first as long as it can be.
    WebPaths.Converted plain = WebPaths.convert("/foo{name}-{zip}bar");
    Map<String, String> matched = plain.template().match("/fooa-b-cbar");
    assertEquals("a-b", plain.variables().get("name").valueIn(matched));
    assertEquals("c", plain.variables().get("zip").valueIn(matched));
    assertNull(plain.template().match("/foo-bar"));
    assertEquals("x y", plain.variables().get("name").valueIn(plain.template().match("/foox%20y-1bar")), "decoded");
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
    for (String path : new String[] {"/files/{name}.{*ext}", "/files/{name}.{ext: .*}", "/a/{*rest}/b", "/a/{id", "/a/{}", "/a/{id}/{id}",
        "/a/{id: [}"}) {
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> WebPaths.convert(path));
      assertTrue(refused.getMessage().contains(path), refused.getMessage());
    }
  }
}
