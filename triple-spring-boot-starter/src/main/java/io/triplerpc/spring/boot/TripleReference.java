package io.triplerpc.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects a client proxy of a {@link io.triplerpc.TripleService} interface into a field, a constructor
 * parameter or a {@code @Bean} method parameter:
 *
 * <pre>{@code
 * @Service
 * class Checkout {
 *   private final Payments payments;
 *
 *   Checkout(@TripleReference(address = "payments.internal:50051") Payments payments) {
 *     this.payments = payments;
 *   }
 * }
 * }</pre>
 *
 * <p>Every reference to the same address with the same {@link #target()} shares one
 * {@link io.triplerpc.TripleClient} (one connection per server), built with the {@code triple.client.*}
 * properties (those of the named target over them) and the application's {@link TripleClientCustomizer}s,
 * and closed when the application context closes.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER})
public @interface TripleReference {

  /**
   * The server: {@code host:port}, or a target such as {@code dns:///users.prod.svc:50051} (every
   * address of the name, round robin; {@code ?lb=pick_first} for one at a time),
   * {@code registry://host:7070}, {@code static://h1:50051,h2:50051} or {@code zookeeper://zk:2181};
   * {@code ${...}} placeholders are resolved, and the result is the client's address as written. Empty (the default) finds the servers through the application's registry
   * ({@code triple.registry.address}, or a {@code Registry} bean), unless {@link #target()} names a target
   * with an address.
   */
  String address() default "";

  /**
   * A named target, {@code triple.client.targets.<name>.*}: its address (when {@link #address()} is
   * empty) and the client settings that differ from {@code triple.client.*}. Empty (the default) for
   * {@code triple.client.*} alone. A name the properties do not hold stops the start-up.
   */
  String target() default "";

  /** The service version the calls name ({@code tri-service-version}); the interface's when empty. */
  String version() default "";

  /** The service group the calls name ({@code tri-service-group}); the interface's when empty. */
  String group() default "";
}
