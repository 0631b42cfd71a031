package io.triplerpc.interop.dubbo.api;

import java.util.SortedMap;

/**
 * How both sides' {@code PlainService.traceHop} write one hop: {@code traceId/spanId} of the span the service
 * ran in ({@code -} without one), then {@code " baggage k=v,..."}, sorted by key, if it saw baggage.
 */
public final class TraceHop {

  /** Separates the hops of a relayed call's answer, the caller's first. */
  public static final String SEPARATOR = " > ";

  private TraceHop() {}

  /**
   * @param traceId the span's trace id, or null without a span
   * @param baggage the baggage's keys and values, in the order written
   */
  public static String format(String traceId, String spanId, SortedMap<String, String> baggage) {
    StringBuilder hop = new StringBuilder(traceId == null ? "-" : traceId + "/" + spanId);
    if (!baggage.isEmpty()) {
      hop.append(" baggage ");
      baggage.forEach((key, value) -> hop.append(key).append('=').append(value).append(','));
      hop.setLength(hop.length() - 1);
    }
    return hop.toString();
  }
}
