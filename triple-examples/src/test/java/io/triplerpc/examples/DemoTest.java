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
    assertTrue(output.contains("unary   : SayHello(Ada) -> Hello, Ada!"), output);
    assertTrue(output.contains("stream  : LotsOfReplies(Grace, 3) -> Hello #1, Grace! | Hello #2, Grace! | Hello #3, Grace!"), output);
    assertTrue(output.contains("client  : GreetEveryone(Alan, Barbara, Edsger) -> Hello, Alan and Barbara and Edsger!"), output);
    assertTrue(output.contains("bidi    : Chat(Linus, Margaret) -> Hi Linus, nice to meet you. | Hi Margaret, nice to meet you."), output);
    assertTrue(output.contains("error   : SayHello(\" \") -> INVALID_ARGUMENT: name must not be blank"), output);
    // curl, HTTP/1.1 then HTTP/2, answers the same service on the same port.
    assertTrue(output.split("-> \\{\"message\":\"Hello, Ada!\"}", -1).length == 3, output);
    assertTrue(output.trim().endsWith("done"), output);
  }
}
