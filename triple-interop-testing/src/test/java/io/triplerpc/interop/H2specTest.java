package io.triplerpc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.testing.integration.TestService;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.GoTools;
import io.triplerpc.testing.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * h2spec 2.2.1, the HTTP/2 conformance suite (RFC 7540 and RFC 7541, 145 cases), against a Triple
 * server in cleartext (prior knowledge) and over TLS (ALPN h2). {@code .ci/run} installs it with
 * {@code go install}; where it is missing, the tests are skipped.
 */
class H2specTest {

  /** The number of cases h2spec 2.2.1 runs against a server. */
  private static final int CASES = 145;

  private static Path h2spec;
  private TripleServer server;

  @TempDir
  Path reports;

  @BeforeAll
  static void findH2spec() {
    h2spec = GoTools.find("h2spec");
  }

  /** Per test rather than per class, so that the report counts both as skipped, with the reason. */
  @BeforeEach
  void requireH2spec() {
    assumeTrue(h2spec != null, "h2spec is not installed "
        + "(go install github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible); skipping the HTTP/2 conformance run");
  }

  @AfterEach
  void stopServer() throws Exception {
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Test
  void cleartextPortPassesEveryCase() throws Exception {
    server = InteropServer.start("127.0.0.1", 0);
    assertAllPassed(run(List.of()));
  }

  @Test
  void tlsPortPassesEveryCase() throws Exception {
    server = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .addService(TestService.class, new TestServiceImpl())
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .build()
        .start();
    assertAllPassed(run(List.of("-t", "-k")));
  }

  /** Runs h2spec against the server with {@code flags}; returns its JUnit report's cases. */
  private List<Case> run(List<String> flags) throws Exception {
    Path report = reports.resolve("h2spec.xml");
    List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1",
        "-p", Integer.toString(server.port()), "-o", "5", "-j", report.toString()));
    command.addAll(flags);
    // Its output goes to a file, so that a full pipe never stalls it and a hang still ends the test.
    Path log = reports.resolve("h2spec.log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean exited = process.waitFor(5, TimeUnit.MINUTES);
    if (!exited) {
      process.destroyForcibly();
    }
    String output = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    assertTrue(exited, "h2spec hung:\n" + output);
    assertTrue(Files.exists(report), "h2spec wrote no report (exit " + process.exitValue() + "):\n" + output);
    return parse(report);
  }

  /** One h2spec case: its section and description, and why it failed (null if it passed). */
  private record Case(String name, String failure, boolean skipped) {}

  private static List<Case> parse(Path report) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    NodeList testcases = factory.newDocumentBuilder().parse(report.toFile()).getElementsByTagName("testcase");
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < testcases.getLength(); i++) {
      Element testcase = (Element) testcases.item(i);
      String name = testcase.getAttribute("package") + " " + testcase.getAttribute("classname");
      NodeList failures = testcase.getElementsByTagName("failure");
      NodeList errors = testcase.getElementsByTagName("error");
      String failure = null;
      if (failures.getLength() > 0) {
        failure = failures.item(0).getTextContent().trim();
      } else if (errors.getLength() > 0) {
        failure = errors.item(0).getTextContent().trim();
      }
      cases.add(new Case(name, failure, testcase.getElementsByTagName("skipped").getLength() > 0));
    }
    return cases;
  }

  private static void assertAllPassed(List<Case> cases) {
    StringBuilder failed = new StringBuilder();
    int passed = 0;
    for (Case c : cases) {
      if (c.failure() != null) {
        failed.append("\n  ").append(c.name()).append(": ").append(c.failure().replace('\n', ' '));
      } else if (!c.skipped()) {
        passed++;
      }
    }
    assertEquals("", failed.toString(), "h2spec cases failed");
    assertEquals(CASES, passed, "h2spec ran " + cases.size() + " cases");
  }
}
