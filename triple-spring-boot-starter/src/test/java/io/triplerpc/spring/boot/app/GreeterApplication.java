package io.triplerpc.spring.boot.app;

import io.triplerpc.spring.boot.TripleReference;
import io.triplerpc.spring.boot.TripleServerStartedEvent;
import java.util.concurrent.CompletableFuture;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.event.EventListener;

/**
 * A Spring Boot application serving {@link Greeter} and calling it back through consumers with an injected
 * field, constructor parameter and {@code @Bean} method parameter. The consumers are lazy: the
 * port they call is {@code local.triple.server.port}, known once the server listens.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(GreeterApplication.ConstructorConsumer.class)
public class GreeterApplication {

  @Bean
  GreeterImpl greeter() {
    return new GreeterImpl();
  }

  @Bean
  @Lazy
  FieldConsumer fieldConsumer() {
    return new FieldConsumer();
  }

  @Bean
  @Lazy
  MethodConsumer methodConsumer(@TripleReference(address = "127.0.0.1:${local.triple.server.port}") Greeter greeter) {
    return new MethodConsumer(greeter);
  }

  @Bean
  StartedListener startedListener() {
    return new StartedListener();
  }

  /** Takes its client in a field. */
  public static class FieldConsumer {
    @TripleReference(address = "127.0.0.1:${local.triple.server.port}")
    Greeter greeter;

    /** The injected client. */
    public Greeter greeter() {
      return greeter;
    }
  }

  /** Takes its client in its constructor. */
  @Lazy
  public static class ConstructorConsumer {
    private final Greeter greeter;

    ConstructorConsumer(@TripleReference(address = "127.0.0.1:${local.triple.server.port}") Greeter greeter) {
      this.greeter = greeter;
    }

    /** The injected client. */
    public Greeter greeter() {
      return greeter;
    }
  }

  /** Takes its client as a parameter of its {@code @Bean} method. */
  public static class MethodConsumer {
    private final Greeter greeter;

    MethodConsumer(Greeter greeter) {
      this.greeter = greeter;
    }

    /** The injected client. */
    public Greeter greeter() {
      return greeter;
    }
  }

  /** Remembers the server-started event. */
  public static class StartedListener {
    /** Completed with the event's port. */
    public final CompletableFuture<Integer> port = new CompletableFuture<>();

    @EventListener
    void started(TripleServerStartedEvent event) {
      port.complete(event.port());
    }
  }
}
