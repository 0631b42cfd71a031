package io.triplerpc.internal.rest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target for what a REST request's target goes through before any service (Jazzer): path
 * templates as rules write them, their matching of a raw path, and the query's decoding. Beyond "nothing
 * escapes but IllegalArgumentException": a match binds exactly the template's variables, and a decoded
 * value never holds a {@code /} that its template did not allow.
 */
class RestParsersFuzzTest {

  private static final List<PathTemplate> TEMPLATES = List.of(
      PathTemplate.parse("/v1/{name=shelves/*/books/*}"),
      PathTemplate.parse("/v1/shelves/{shelf}/books"),
      PathTemplate.parse("/v1/{name=shelves/*}:archive"),
      PathTemplate.parse("/v1/files/{path=**}"),
      PathTemplate.parse("/v1/inspect/{id}/{nested.label}"));

  @FuzzTest(maxDuration = "")
  void targets(FuzzedDataProvider data) {
    String template = data.consumeString(64);
    String path = data.consumeRemainingAsString();
    try {
      PathTemplate parsed = PathTemplate.parse(template);
      check(parsed, path);
    } catch (IllegalArgumentException malformed) {
      // A template or path the grammar refuses: said as such.
    }
    for (PathTemplate known : TEMPLATES) {
      try {
        check(known, path);
      } catch (IllegalArgumentException malformed) {
        // A malformed escape in the path.
      }
    }
    int question = path.indexOf('?');
    try {
      QueryParameters.parse(question < 0 ? path : path.substring(question + 1));
    } catch (IllegalArgumentException malformed) {
      // A malformed escape or a ';' in the query.
    }
    try {
      FieldValues.goDuration(path);
    } catch (IllegalArgumentException malformed) {
      // Not a duration.
    }
  }

  private static void check(PathTemplate template, String path) {
    Map<String, String> values = template.match(path);
    if (values == null) {
      return;
    }
    assertTrue(values.keySet().containsAll(template.fieldPaths()) && values.size() == template.fieldPaths().size(),
        template + " bound " + values);
    if (template.text().equals("/v1/shelves/{shelf}/books")) {
      assertTrue(!values.get("shelf").contains("/") || path.contains("%2F") || path.contains("%2f"),
          "a one-segment value holds a slash only if it came escaped: " + values);
    }
  }
}
