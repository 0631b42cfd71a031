package com.example.hello;

import org.springframework.stereotype.Service;

/** Implements {@link Greeter}; being a bean, it is served on triple.server.port with no more code. */
@Service
public class GreeterService implements Greeter {

  @Override
  public Greeting greet(String name) {
    String message = "Hello, " + name + "!";
    return new Greeting(message, message.length());
  }
}
