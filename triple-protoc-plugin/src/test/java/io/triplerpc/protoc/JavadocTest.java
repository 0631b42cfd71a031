package io.triplerpc.protoc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JavadocTest {

  @Test
  void commentLinesLoseTheSpaceAfterTheSlashesAndTheBlankEnds() {
    assertEquals(List.of("Says hello.", "", "  Indented."), Javadoc.lines("\n Says hello.\n\n   Indented.  \n"));
  }

  @Test
  void nothingInACommentCanEndTheJavadocOrBecomeATagOrMarkup() {
    assertEquals("a *&#47; b", Javadoc.escape("a */ b"));
    assertEquals("&#64;param x &#64;Deprecated {&#64;code y}", Javadoc.escape("@param x @Deprecated {@code y}"));
    assertEquals("&lt;b&gt;bold&lt;/b&gt; &amp;amp;", Javadoc.escape("<b>bold</b> &amp;"));
    assertEquals("path/to/file a / b", Javadoc.escape("path/to/file a / b"));
  }

  @Test
  void unicodeEscapesAreNotReadByJavac() {
    // javac turns \u002A\u002F into */ before it sees the comment; escaped, the backslash stays text.
    assertEquals("&#92;u002A&#92;u002F", Javadoc.escape("\\u002A\\u002F"));
  }
}
