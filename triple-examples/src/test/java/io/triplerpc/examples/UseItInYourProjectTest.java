package io.triplerpc.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

/**
 * What a project outside this build relies on: triple-bom has the build's version and lists every
 * artifact a project may depend on, and the README's "Use it in your project" snippet is what
 * triple-examples/standalone (built against the installed artifacts by scripts/examples.sh) uses.
 */
class UseItInYourProjectTest {

  private static final Path ROOT = Path.of("..");

  /** Modules that are this repository's own tests, tools and demos, never a project's dependency. */
  private static final Set<String> NOT_FOR_PROJECTS = Set.of(
      "triple-bom", "triple-interop-testing", "triple-dubbo-interop", "triple-conformance", "triple-examples",
      "triple-benchmark", "triple-codegen-tests", "triple-netty-shaded-tests");

  private static Document parse(String xml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
  }

  private static Document pom(Path dir) throws Exception {
    return parse(Files.readString(dir.resolve("pom.xml"), StandardCharsets.UTF_8));
  }

  /** The child elements of {@code parent} named {@code name}. */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        found.add(element);
      }
    }
    return found;
  }

  /** The text of the element at {@code path} under {@code parent} (child names), or null. */
  private static String text(Element parent, String... path) {
    Element at = parent;
    for (String name : path) {
      List<Element> next = children(at, name);
      if (next.isEmpty()) {
        return null;
      }
      at = next.get(0);
    }
    return at.getTextContent().strip();
  }

  /** Each dependency under {@code dependencies} (an element holding dependency elements), as a string. */
  private static List<String> dependencies(Element dependencies) {
    List<String> found = new ArrayList<>();
    for (Element dependency : children(dependencies, "dependency")) {
      found.add(String.join(":", text(dependency, "groupId"), text(dependency, "artifactId"),
          String.valueOf(text(dependency, "version")), String.valueOf(text(dependency, "type")),
          String.valueOf(text(dependency, "scope"))));
    }
    return found;
  }

  private static Element managed(Document pom) {
    return children(children(pom.getDocumentElement(), "dependencyManagement").get(0), "dependencies").get(0);
  }

  /** The artifactIds of the build's modules that are jars, all levels down, skipping the named ones. */
  private static void modules(Path dir, Set<String> artifactIds, Set<String> skipped) throws Exception {
    Element project = pom(dir).getDocumentElement();
    String artifactId = text(project, "artifactId");
    if (skipped.contains(artifactId)) {
      return;
    }
    if (!"pom".equals(text(project, "packaging"))) {
      artifactIds.add(artifactId);
    }
    for (Element modules : children(project, "modules")) {
      for (Element module : children(modules, "module")) {
        modules(dir.resolve(module.getTextContent().strip()), artifactIds, skipped);
      }
    }
  }

  private static Set<String> bomArtifacts() throws Exception {
    Set<String> artifactIds = new TreeSet<>();
    for (Element dependency : children(managed(pom(ROOT.resolve("triple-bom"))), "dependency")) {
      artifactIds.add(text(dependency, "artifactId"));
    }
    return artifactIds;
  }

  @Test
  void theBomHasTheBuildsVersionAndNoParent() throws Exception {
    Element bom = pom(ROOT.resolve("triple-bom")).getDocumentElement();
    String version = text(pom(ROOT).getDocumentElement(), "version");
    assertEquals(version, text(bom, "version"), "triple-bom's version (mvn versions:set -DprocessAllModules sets both)");
    assertEquals("io.triplerpc", text(bom, "groupId"));
    assertTrue(children(bom, "parent").isEmpty(), "a parent's dependencyManagement would come with every import");
    for (String dependency : dependencies(managed(pom(ROOT.resolve("triple-bom"))))) {
      assertTrue(dependency.startsWith("io.triplerpc:") && dependency.endsWith(":${project.version}:null:null"), dependency);
    }
  }

  @Test
  void theBomListsEveryArtifactOfTheBuildThatAProjectMayUse() throws Exception {
    Set<String> forProjects = new TreeSet<>();
    modules(ROOT, forProjects, NOT_FOR_PROJECTS);
    Set<String> listed = bomArtifacts();
    Set<String> missing = new TreeSet<>(forProjects);
    missing.removeAll(listed);
    assertTrue(missing.isEmpty(), "modules triple-bom does not list: " + missing);

    Set<String> built = new TreeSet<>();
    modules(ROOT, built, Set.of());
    Set<String> notBuilt = new TreeSet<>(listed);
    notBuilt.removeAll(built);
    assertTrue(notBuilt.isEmpty(), "triple-bom lists artifacts this build does not make: " + notBuilt);
  }

  @Test
  void theReadmeSnippetIsWhatTheStandaloneExampleBuildsWith() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    int section = readme.indexOf("\n## Use it in your project\n");
    assertFalse(section < 0, "the README has the section");
    Matcher block = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(block.find(section), "the section's xml block");
    String snippet = block.group(1);

    Matcher comment = Pattern.compile("<!--(.*?)-->", Pattern.DOTALL).matcher(snippet);
    Set<String> optional = new LinkedHashSet<>();
    while (comment.find()) {
      Matcher artifactId = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(comment.group(1));
      while (artifactId.find()) {
        optional.add(artifactId.group(1));
      }
    }
    assertTrue(bomArtifacts().containsAll(optional), "the optional artifacts " + optional + " are in the BOM");
    assertTrue(optional.size() >= 5, "the optional modules are named: " + optional);

    Element readmeProject = parse("<project>" + snippet + "</project>").getDocumentElement();
    Element example = pom(ROOT.resolve("triple-examples/standalone")).getDocumentElement();
    List<String> imports = dependencies(children(children(readmeProject, "dependencyManagement").get(0), "dependencies").get(0));
    String version = text(pom(ROOT).getDocumentElement(), "version");
    assertEquals(List.of("io.triplerpc:triple-bom:" + version + ":pom:import"), imports);
    assertEquals(imports, dependencies(children(children(example, "dependencyManagement").get(0), "dependencies").get(0)));
    List<String> used = dependencies(children(readmeProject, "dependencies").get(0));
    assertEquals(List.of("io.triplerpc:triple-core:null:null:null", "io.triplerpc:triple-transport-netty:null:null:runtime"), used);
    assertTrue(dependencies(children(example, "dependencies").get(0)).containsAll(used), "the example depends on " + used);
  }
}
