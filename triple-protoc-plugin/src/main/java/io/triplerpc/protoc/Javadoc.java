package io.triplerpc.protoc;

import java.util.ArrayList;
import java.util.List;

/** Proto comments as Javadoc lines that can neither end the comment nor be read as tags or markup. */
final class Javadoc {

  private Javadoc() {}

  /**
   * The lines of a proto comment as SourceCodeInfo holds it ({@code " Says hello.\n More.\n"}), escaped:
   * {@code &}, {@code <} and {@code >} as HTML entities (the comment is text, not markup), {@code @} as
   * {@code &#64;} (no line becomes a block tag, no {@code {@code}} an inline one), {@code /} after
   * {@code *} as {@code &#47;} (the comment cannot end early), and the backslash as {@code &#92;} (javac
   * reads {@code \}{@code u000a} as a line break even in a comment). The one space that follows
   * {@code //} is dropped; blank lines at the start and end go.
   */
  static List<String> lines(String comment) {
    String text = ProtoCommentIndex.normalize(comment);
    List<String> lines = new ArrayList<>();
    if (!text.isEmpty()) {
      for (String line : text.split("\n", -1)) {
        lines.add(escape(line));
      }
    }
    return lines;
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    char previous = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '@' -> out.append("&#64;");
        case '\\' -> out.append("&#92;");
        case '/' -> out.append(previous == '*' ? "&#47;" : "/");
        default -> out.append(c);
      }
      previous = c;
    }
    return out.toString();
  }
}
