/**
 * Spring Boot auto-configuration of Triple: the server ({@code triple.server.*}), the clients of
 * {@code @TripleReference}s ({@code triple.client.*}), the registry ({@code triple.registry.*}), metrics and
 * health. Listed in {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}.
 */
package io.triplerpc.spring.boot.autoconfigure;
