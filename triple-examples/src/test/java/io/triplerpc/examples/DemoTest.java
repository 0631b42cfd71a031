package io.triplerpc.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DemoTest {

  @Test
  void demoCallsEveryShapeAndPrintsTheAnswers() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      Demo.main(new String[0]);
    } finally {
      System.setOut(original);
    }
    String output = captured.toString(StandardCharsets.UTF_8);
    assertTrue(output.contains("registry: embedded, in-process"), output);
    assertTrue(output.contains("provider: provider-1 serves triple.demo.Greeter on 127.0.0.1:"), output);
    assertTrue(output.contains("consumer: found triple.demo.Greeter through the registry (greeter-app)"), output);
    assertTrue(output.contains("unary   : SayHello(Ada) -> Hello, Ada! [provider-1]"), output);
    // The second provider joins; round robin then alternates between the two.
    assertTrue(output.contains("provider: provider-2 serves triple.demo.Greeter"), output);
    assertTrue(output.contains("spread  : SayHello(Ada) x6 -> provider-1, provider-2, provider-1, provider-2, provider-1, provider-2")
        || output.contains("spread  : SayHello(Ada) x6 -> provider-2, provider-1, provider-2, provider-1, provider-2, provider-1"),
        output);
    assertTrue(output.contains("stream  : LotsOfReplies(Grace, 3) -> Hello #1, Grace! | Hello #2, Grace! | Hello #3, Grace!"), output);
    assertTrue(output.contains("client  : GreetEveryone(Alan, Barbara, Edsger) -> Hello, Alan and Barbara and Edsger!"), output);
    assertTrue(output.contains("bidi    : Chat(Linus, Margaret) -> Hi Linus, nice to meet you. | Hi Margaret, nice to meet you."), output);
    assertTrue(output.contains("error   : SayHello(\" \") -> INVALID_ARGUMENT: name must not be blank"), output);
    // curl, HTTP/1.1 then HTTP/2, answers the same service on the same port.
    assertTrue(output.split("-> \\{\"message\":\"Hello, Ada!\",\"servedBy\":\"provider-1\"}", -1).length == 3, output);
    // A few call metrics, counted on both providers and the consumer, the curl calls included.
    assertTrue(output.matches("(?s).*metrics : grpc\\.server\\.call\\.started\\{grpc\\.method=triple\\.demo\\.Greeter/SayHello\\}"
        + " grpc=\\d+ connect=2\n.*"), output);
    assertTrue(output.matches("(?s).*metrics : grpc\\.server\\.call\\.duration\\{grpc\\.method=triple\\.demo\\.Greeter/SayHello,"
        + "grpc\\.status=OK\\} count=\\d+ mean=\\d+\\.\\d{3} ms\n.*"), output);
    assertTrue(output.matches("(?s).*metrics : grpc\\.server\\.call\\.duration\\{grpc\\.method=triple\\.demo\\.Greeter/SayHello,"
        + "grpc\\.status=INVALID_ARGUMENT\\} count=1 .*"), output);
    assertTrue(output.matches("(?s).*metrics : grpc\\.client\\.call\\.duration\\{grpc\\.method=triple\\.demo\\.Greeter/SayHello,"
        + "grpc\\.status=INVALID_ARGUMENT\\} count=1 .*"), output);
    assertTrue(output.trim().endsWith("done"), output);
  }
}
