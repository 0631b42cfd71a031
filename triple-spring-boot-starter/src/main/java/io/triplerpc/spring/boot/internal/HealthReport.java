package io.triplerpc.spring.boot.internal;

import java.util.Map;

/**
 * A health check's outcome in no Boot line's types, so that the checks are written once and each starter's
 * indicator (Boot 4's {@code org.springframework.boot.health.contributor}, Boot 3's
 * {@code org.springframework.boot.actuate.health}) only translates it.
 *
 * @param up whether the status is UP (DOWN otherwise)
 * @param details the details, in the order they are shown
 * @param error why it is DOWN, or null
 */
public record HealthReport(boolean up, Map<String, Object> details, Throwable error) {
}
