package com.example.hello;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Serves {@link Greeter} with Triple on port 50051, and Actuator over WebFlux (Reactor Netty, Boot 3.5's
 * Netty 4.1) on port 8080: see application.properties.
 */
@SpringBootApplication
public class HelloApplication {

  public static void main(String[] args) {
    SpringApplication.run(HelloApplication.class, args);
  }
}
