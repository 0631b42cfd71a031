/**
 * Triple in Spring Boot applications: {@link io.triplerpc.spring.boot.TripleReference} injects clients,
 * {@link io.triplerpc.spring.boot.TripleServerCustomizer} and {@link io.triplerpc.spring.boot.TripleClientCustomizer}
 * adjust what the auto-configuration builds, {@link io.triplerpc.spring.boot.TripleServerStartedEvent} tells that the
 * server listens. The auto-configuration itself is in {@code io.triplerpc.spring.boot.autoconfigure}; docs/spring-boot.md
 * describes the whole.
 */
package io.triplerpc.spring.boot;
