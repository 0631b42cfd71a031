package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.triplerpc.HttpGetHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The server's docs page: Swagger UI, as the {@code org.webjars:swagger-ui} webjar ships it, pointed at the
 * server's OpenAPI documents. Of its files only {@code swagger-initializer.js}, Swagger UI's configuration, is
 * Triple's; the webjar's {@code index.html} gets a {@code <base>} so that it loads its files from the docs
 * folder when served at the folder's own path too ({@code /docs} as {@code /docs/}). Immutable and
 * thread-safe, the files it has read cached.
 */
public final class SwaggerUiPage {

  /** The webjar, as a build names it. */
  public static final String WEBJAR = "org.webjars:swagger-ui";
  private static final String POM_PROPERTIES = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
  /** A file of the webjar's flat folder: no separator, no leading dot, nothing percent-encoded. */
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final String INITIALIZER = "swagger-initializer.js";
  private static final Map<String, String> CONTENT_TYPES = Map.of(
      "html", "text/html; charset=utf-8",
      "js", "text/javascript; charset=utf-8",
      "css", "text/css; charset=utf-8",
      "png", "image/png",
      "map", "application/json",
      "txt", "text/plain; charset=utf-8");

  private final ClassLoader loader;
  /** The webjar's folder of files on the class path, ending in {@code /}. */
  private final String resources;
  /** The version of Swagger UI the webjar holds. */
  private final String version;
  /** Where the page is served, such as {@code /docs}. */
  private final String path;
  private final HttpGetHandler.Response page;
  private final HttpGetHandler.Response initializer;
  /** The webjar's files read so far, by name: at most the webjar's own, since only those are cached. */
  private final Map<String, HttpGetHandler.Response> files = new ConcurrentHashMap<>();

  private SwaggerUiPage(ClassLoader loader, String version, String path, Map<String, String> documents) {
    this.loader = loader;
    this.version = version;
    this.resources = "META-INF/resources/webjars/swagger-ui/" + version + "/";
    this.path = path;
    byte[] index = read("index.html");
    if (index == null) {
      throw new IllegalStateException(WEBJAR + " " + version + " has no index.html in " + resources);
    }
    String html = new String(index, StandardCharsets.UTF_8);
    int head = html.indexOf("<head>");
    if (head < 0) {
      throw new IllegalStateException(WEBJAR + " " + version + "'s index.html has no <head>");
    }
    head += "<head>".length();
    html = html.substring(0, head) + "<base href=\"" + path + "/\">" + html.substring(head);
    this.page = HttpGetHandler.Response.ok(CONTENT_TYPES.get("html"), html.getBytes(StandardCharsets.UTF_8));
    this.initializer = HttpGetHandler.Response.ok(CONTENT_TYPES.get("js"),
        initializer(documents).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The page at {@code path} showing {@code documents}, from the webjar {@code loader} finds.
   *
   * @param path an absolute path not ending in {@code /}, with no character that HTML or JavaScript quote
   * @param documents each document's name in the page's list by its absolute path, the default first
   * @throws IllegalStateException if the webjar is not on the class path, naming it
   */
  public static SwaggerUiPage load(ClassLoader loader, String path, Map<String, String> documents) {
    Objects.requireNonNull(path, "path");
    Properties pom = new Properties();
    try (InputStream in = loader.getResourceAsStream(POM_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException("openApiDocs(\"" + path + "\") serves Swagger UI from the " + WEBJAR
            + " webjar, which is not on the class path: add the dependency " + WEBJAR
            + " (Triple is tested with 5.35.0)");
      }
      pom.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + POM_PROPERTIES, e);
    }
    String version = pom.getProperty("version");
    if (version == null || !FILE_NAME.matcher(version).matches()) {
      throw new IllegalStateException(POM_PROPERTIES + " names no version of " + WEBJAR + ": " + version);
    }
    return new SwaggerUiPage(loader, version, path, new LinkedHashMap<>(documents));
  }

  /** The version of Swagger UI served. */
  public String version() {
    return version;
  }

  /** Answers the page's own path ({@code /docs}). */
  public HttpGetHandler page() {
    return request -> page;
  }

  /**
   * Answers every path under the page's folder ({@code /docs/...}): the page at the folder itself and at
   * {@code index.html}, Triple's configuration, and the webjar's files by name; 404 for anything else,
   * which keeps requests inside the webjar's folder.
   */
  public HttpGetHandler folder() {
    return request -> {
      String target = request.target();
      int query = target.indexOf('?');
      String name = (query < 0 ? target : target.substring(0, query)).substring(path.length() + 1);
      if (name.isEmpty() || name.equals("index.html")) {
        return page;
      }
      if (name.equals(INITIALIZER)) {
        return initializer;
      }
      if (!FILE_NAME.matcher(name).matches()) {
        return notFound(name);
      }
      HttpGetHandler.Response file = files.get(name);
      if (file == null) {
        byte[] body = read(name);
        if (body == null) {
          return notFound(name);
        }
        String extension = name.substring(name.lastIndexOf('.') + 1);
        file = HttpGetHandler.Response.ok(CONTENT_TYPES.getOrDefault(extension, "application/octet-stream"), body);
        files.put(name, file);
      }
      return file;
    };
  }

  private HttpGetHandler.Response notFound(String name) {
    return new HttpGetHandler.Response(404, CONTENT_TYPES.get("txt"),
        ("No " + name + " in " + path + "/\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The webjar's file {@code name}, or null if it has none. */
  private byte[] read(String name) {
    try (InputStream in = loader.getResourceAsStream(resources + name)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + resources + name, e);
    }
  }

  /** Swagger UI's configuration, as the webjar's own initializer is laid out, with the server's documents. */
  private static String initializer(Map<String, String> documents) {
    ObjectMapper json = new ObjectMapper();
    ArrayNode urls = json.createArrayNode();
    documents.forEach((url, name) -> urls.addObject().put("url", url).put("name", name));
    // validatorUrl null: the page calls no one but this server (Swagger UI would ask swagger.io).
    return "// Triple's configuration of Swagger UI: the OpenAPI documents this server serves.\n"
        + "window.onload = function () {\n"
        + "  window.ui = SwaggerUIBundle({\n"
        + "    urls: " + urls + ",\n"
        + "    dom_id: \"#swagger-ui\",\n"
        + "    deepLinking: true,\n"
        + "    validatorUrl: null,\n"
        + "    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],\n"
        + "    plugins: [SwaggerUIBundle.plugins.DownloadUrl],\n"
        + "    layout: \"StandaloneLayout\"\n"
        + "  });\n"
        + "};\n";
  }
}
