package io.triplerpc.internal.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.triplerpc.HttpGetHandler;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

/**
 * The server's docs page: Swagger UI, as the {@code org.webjars:swagger-ui} webjar ships it, pointed at the
 * server's OpenAPI documents. Of its files only {@code swagger-initializer.js}, Swagger UI's configuration, is
 * Triple's; the webjar's {@code index.html} gets a {@code <base>} so that it loads its files from the docs
 * folder when served at the folder's own path too ({@code /docs} as {@code /docs/}). That {@code <base>} is the
 * version's folder, {@code /docs/5.35.0/}: a webjar's files never change within a version, so they are served
 * there as {@code immutable} for a year, and a server with another Swagger UI has other URLs for them. The page
 * and its configuration (which lists the server's documents) are {@code no-cache}, and so are the files at the
 * unversioned {@code /docs/<name>}. Immutable and thread-safe, the files it has read cached.
 */
public final class SwaggerUiPage {

  /** The webjar, as a build names it. */
  public static final String WEBJAR = "org.webjars:swagger-ui";
  private static final String POM_PROPERTIES = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
  /** A file of the webjar's flat folder: no separator, no leading dot, nothing percent-encoded. */
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final String INITIALIZER = "swagger-initializer.js";
  private static final String CACHE_CONTROL = "cache-control";
  /** A file of a webjar's version: the same bytes at that URL for good. */
  private static final String IMMUTABLE = "public, max-age=31536000, immutable";
  /** What may change with the server (the page, its documents' list): asked for again each time. */
  private static final String NO_CACHE = "no-cache";
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
  /** The names of the webjar folder's files, listed once; null when the class path could not list them. */
  private final Set<String> names;

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
    html = html.substring(0, head) + "<base href=\"" + path + "/" + version + "/\">" + html.substring(head);
    this.page = HttpGetHandler.Response.ok(CONTENT_TYPES.get("html"), html.getBytes(StandardCharsets.UTF_8))
        .withHeader(CACHE_CONTROL, NO_CACHE);
    this.initializer = HttpGetHandler.Response.ok(CONTENT_TYPES.get("js"),
        initializer(documents).getBytes(StandardCharsets.UTF_8)).withHeader(CACHE_CONTROL, NO_CACHE);
    this.names = list(loader.getResource(resources + "index.html"));
  }

  /**
   * The file names of the webjar folder that holds {@code index} (a jar's entry or a directory's file), or null
   * when its URL is of another kind.
   */
  private Set<String> list(URL index) {
    try {
      if (index.getProtocol().equals("jar")) {
        JarURLConnection connection = (JarURLConnection) index.openConnection();
        // Not the JVM's shared JarFile, which this closes.
        connection.setUseCaches(false);
        Set<String> listed = new HashSet<>();
        try (JarFile jar = connection.getJarFile()) {
          jar.stream().map(JarEntry::getName)
              .filter(name -> name.startsWith(resources) && name.indexOf('/', resources.length()) < 0
                  && name.length() > resources.length())
              .forEach(name -> listed.add(name.substring(resources.length())));
        }
        return Set.copyOf(listed);
      }
      if (index.getProtocol().equals("file")) {
        File[] files = new File(index.toURI()).getParentFile().listFiles(File::isFile);
        Set<String> listed = new HashSet<>();
        for (File file : files == null ? new File[0] : files) {
          listed.add(file.getName());
        }
        return Set.copyOf(listed);
      }
    } catch (IOException | java.net.URISyntaxException | IllegalArgumentException e) {
      throw new IllegalStateException("Listing the files of " + WEBJAR + " " + version + " at " + index, e);
    }
    return null;
  }

  /**
   * Whether {@code target} (a path under the page's folder, with its query if any) names one of the page's files:
   * the page, its configuration, a file of the webjar, at the folder or at the version's folder within it. A
   * REST route under the folder serves the other paths. Never blocks.
   */
  public boolean owns(String target) {
    String name = nameIn(target);
    if (name.startsWith(version + "/")) {
      name = name.substring(version.length() + 1);
    }
    return name.isEmpty() || name.equals("index.html") || name.equals(INITIALIZER)
        || (names == null ? FILE_NAME.matcher(name).matches() : names.contains(name));
  }

  private String nameIn(String target) {
    int query = target.indexOf('?');
    return (query < 0 ? target : target.substring(0, query)).substring(path.length() + 1);
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
   * Answers every path under the page's folder ({@code /docs/...}) that it {@link #owns}: the page at the folder
   * itself and at {@code index.html}, Triple's configuration, and the webjar's files by name, each at the folder and
   * at the version's folder ({@code /docs/5.35.0/swagger-ui.css}, immutable); 404 for anything else, which keeps
   * requests inside the webjar's folder.
   */
  public HttpGetHandler folder() {
    return request -> {
      String name = nameIn(request.target());
      boolean versioned = name.startsWith(version + "/");
      if (versioned) {
        name = name.substring(version.length() + 1);
      }
      if (name.isEmpty() || name.equals("index.html")) {
        return page;
      }
      if (name.equals(INITIALIZER)) {
        return initializer;
      }
      if (!FILE_NAME.matcher(name).matches() || (names != null && !names.contains(name))) {
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
      return file.withHeader(CACHE_CONTROL, versioned ? IMMUTABLE : NO_CACHE);
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
