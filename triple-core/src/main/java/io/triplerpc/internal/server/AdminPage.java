package io.triplerpc.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The admin endpoint's HTML page: each section's JSON laid out as tables (an object as rows of name and value,
 * a list of objects as one row each), a heading linking the section's JSON. Rendered on the server, every
 * value escaped; no script, no style sheet beyond a few lines inline.
 */
final class AdminPage {

  private AdminPage() {}

  static String render(Map<String, JsonNode> sections) {
    StringBuilder html = new StringBuilder(4096)
        .append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Triple admin</title>\n")
        .append("<style>body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse;margin:.3em 0}")
        .append("td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}")
        .append("th{background:#f3f3f3}</style></head>\n<body><h1>Triple admin</h1>\n<p>");
    for (String name : sections.keySet()) {
      html.append("<a href=\"#").append(escape(name)).append("\">").append(escape(name)).append("</a> ");
    }
    html.append("</p>\n");
    sections.forEach((name, node) -> {
      String escaped = escape(name);
      html.append("<h2 id=\"").append(escaped).append("\">").append(escaped)
          .append(" <small><a href=\"/").append(escaped).append("\">JSON</a></small></h2>\n");
      value(html, node);
      html.append('\n');
    });
    return html.append("</body></html>\n").toString();
  }

  private static void value(StringBuilder html, JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      html.append("&ndash;");
    } else if (node.isObject()) {
      object(html, node);
    } else if (node.isArray()) {
      array(html, node);
    } else {
      html.append(escape(node.asText()));
    }
  }

  private static void object(StringBuilder html, JsonNode node) {
    if (node.isEmpty()) {
      html.append("&ndash;");
      return;
    }
    html.append("<table>");
    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      html.append("<tr><th>").append(escape(field.getKey())).append("</th><td>");
      value(html, field.getValue());
      html.append("</td></tr>");
    }
    html.append("</table>");
  }

  /** A list of objects is a table with a column per name any of them has; other lists, their items in a row. */
  private static void array(StringBuilder html, JsonNode node) {
    if (node.isEmpty()) {
      html.append("none");
      return;
    }
    Set<String> columns = new LinkedHashSet<>();
    for (JsonNode item : node) {
      if (!item.isObject()) {
        columns = null;
        break;
      }
      item.fieldNames().forEachRemaining(columns::add);
    }
    if (columns == null) {
      String separator = "";
      for (JsonNode item : node) {
        html.append(separator);
        value(html, item);
        separator = ", ";
      }
      return;
    }
    html.append("<table><tr>");
    for (String column : columns) {
      html.append("<th>").append(escape(column)).append("</th>");
    }
    html.append("</tr>");
    for (JsonNode item : node) {
      html.append("<tr>");
      for (String column : columns) {
        html.append("<td>");
        value(html, item.get(column));
        html.append("</td>");
      }
      html.append("</tr>");
    }
    html.append("</table>");
  }

  /** {@code text} safe in HTML content and in a quoted attribute. */
  static String escape(String text) {
    StringBuilder escaped = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replacement = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (replacement != null && escaped == null) {
        escaped = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (escaped != null) {
        if (replacement != null) {
          escaped.append(replacement);
        } else {
          escaped.append(c);
        }
      }
    }
    return escaped == null ? text : escaped.toString();
  }
}
