package io.triplerpc.spring.boot.app;

import io.triplerpc.TripleService;

/** The test service: plain Java types, so curl sends JSON. */
@TripleService(name = "test.Greeter")
public interface Greeter {

  /** "Hello, {name}". */
  String greet(String name);

  /** Answers once the test lets it ({@link GreeterImpl#release()}): a call kept in flight. */
  String slow(String name);
}
