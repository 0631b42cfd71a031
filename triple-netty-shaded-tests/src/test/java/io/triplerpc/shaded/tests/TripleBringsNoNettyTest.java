package io.triplerpc.shaded.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * An application that takes triple-netty-shaded and every add-on (serialization, registry, ZooKeeper,
 * Micrometer, OpenTelemetry, the Boot 3.5 starter) gets no Netty from Triple: no Triple artifact
 * depends on one, and no Triple class names one, so whatever Netty the application has (4.1 here, or
 * none) is its own.
 */
class TripleBringsNoNettyTest {

  /** Triple's artifacts that go beside the shaded jar, each of which this test must find. */
  private static final Set<String> ADD_ONS = Set.of("triple-serialization", "triple-serialization-fastjson2",
      "triple-registry", "triple-registry-zookeeper", "triple-micrometer", "triple-opentelemetry",
      "triple-spring-boot3-starter");

  /** A node of mvn dependency:tree's text: its depth (by indent) and groupId:artifactId. */
  private static final Pattern NODE = Pattern.compile("^([|\\s]*)[+\\\\]- ([^:]+):([^:]+):");

  /**
   * Every Netty artifact in the runtime tree is ZooKeeper's: its client loads Netty's TLS classes even
   * on its NIO socket, so triple-registry-zookeeper brings what ZooKeeper asks for, at the application's
   * version (Boot 3.5's 4.1 here), and Triple's own classes never touch it.
   */
  @Test
  void nettyComesOnlyWhereZooKeeperAsksForIt() throws IOException {
    Path tree = Path.of("target", "runtime-dependency-tree.txt");
    assertTrue(Files.isRegularFile(tree), tree + " (written by maven-dependency-plugin at generate-test-resources)");
    Map<String, String> nettyBy = new TreeMap<>();
    Set<String> tripleArtifacts = new TreeSet<>();
    Deque<String> path = new ArrayDeque<>();
    for (String line : Files.readAllLines(tree, StandardCharsets.UTF_8)) {
      Matcher node = NODE.matcher(line);
      if (!node.find()) {
        continue;
      }
      int depth = node.group(1).length() / 3;
      while (path.size() > depth) {
        path.removeLast();
      }
      String artifact = node.group(2) + ":" + node.group(3);
      if (node.group(2).equals("io.triplerpc")) {
        tripleArtifacts.add(node.group(3));
      }
      if (node.group(2).equals("io.netty") && !path.contains("org.apache.zookeeper:zookeeper")) {
        nettyBy.put(artifact, String.join(" > ", path));
      }
      path.addLast(artifact);
    }
    assertTrue(tripleArtifacts.containsAll(ADD_ONS), "the tree holds every add-on: " + tripleArtifacts);
    assertTrue(tripleArtifacts.contains("triple-netty-shaded"), tripleArtifacts.toString());
    assertEquals(Map.of(), nettyBy, "Netty artifacts, each with the path that brings it");
  }

  /**
   * No add-on depends on triple-core, triple-transport-netty or Netty in a scope that reaches the
   * application (compile or runtime, not optional): each expects the application's choice of runtime.
   * Read from the add-ons' own poms, since within the reactor the tree above gets triple-core through
   * the shaded module first and would not show a second way to it.
   */
  @Test
  void noAddOnDependsOnTheUnshadedRuntime() throws Exception {
    List<String> offenders = new ArrayList<>();
    for (String addOn : new TreeSet<>(ADD_ONS)) {
      Path pom = Path.of("..", addOn, "pom.xml");
      assertTrue(Files.isRegularFile(pom), pom.toString());
      Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
          .getDocumentElement();
      for (Element dependency : children(child(project, "dependencies"), "dependency")) {
        String groupId = text(dependency, "groupId");
        String artifactId = text(dependency, "artifactId");
        String scope = text(dependency, "scope");
        boolean reachesTheApplication = (scope.isEmpty() || scope.equals("compile") || scope.equals("runtime"))
            && !text(dependency, "optional").equals("true");
        boolean unshaded = groupId.equals("io.netty")
            || artifactId.equals("triple-core") || artifactId.equals("triple-transport-netty");
        if (reachesTheApplication && unshaded) {
          offenders.add(addOn + " -> " + groupId + ":" + artifactId + (scope.isEmpty() ? "" : ":" + scope));
        }
      }
    }
    assertEquals(List.of(), offenders);
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    if (parent == null) {
      return found;
    }
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        found.add(element);
      }
    }
    return found;
  }

  private static String text(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? "" : element.getTextContent().trim();
  }

  /** No class of an add-on names an unrelocated Netty class, so each runs on the shaded jar's Netty. */
  @Test
  void noAddOnClassNamesNetty() throws IOException {
    Map<String, Path> found = new TreeMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String addOn = addOnOf(Path.of(entry));
      if (addOn != null) {
        found.put(addOn, Path.of(entry));
      }
    }
    assertEquals(new TreeSet<>(ADD_ONS), found.keySet(), "the add-ons on the tests' class path");
    List<String> offenders = new ArrayList<>();
    for (Map.Entry<String, Path> addOn : found.entrySet()) {
      for (String offender : ClassFiles.namingUnrelocatedNetty(addOn.getValue())) {
        offenders.add(addOn.getKey() + ": " + offender);
      }
    }
    assertEquals(List.of(), offenders);
  }

  /**
   * The add-on a class path entry is: its jar ({@code triple-registry-0.1.0-SNAPSHOT.jar}), or, within
   * the reactor, its module's classes directory ({@code triple-registry/target/classes}).
   */
  private static String addOnOf(Path entry) {
    String name = entry.getFileName().toString();
    if (name.equals("classes") && entry.getParent() != null && entry.getParent().getParent() != null) {
      String module = entry.getParent().getParent().getFileName().toString();
      return ADD_ONS.contains(module) ? module : null;
    }
    for (String addOn : ADD_ONS) {
      if (name.matches(Pattern.quote(addOn) + "-\\d.*\\.jar")) {
        return addOn;
      }
    }
    return null;
  }
}
