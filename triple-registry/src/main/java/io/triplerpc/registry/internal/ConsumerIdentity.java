package io.triplerpc.registry.internal;

/**
 * Who a consumer is to the dynamic configuration ({@link Configurators}): rules name consumers by
 * application and host.
 *
 * @param application the consumer's application, or null for none (then its application's rule is not read)
 * @param host the consumer's host, as Dubbo's {@code NetUtils.getLocalHost()} gives a Dubbo consumer's
 */
public record ConsumerIdentity(String application, String host) {

  public ConsumerIdentity {
    java.util.Objects.requireNonNull(host, "host");
  }
}
