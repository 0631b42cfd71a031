package io.triplerpc.registry.internal.rules;

import java.util.List;
import java.util.Map;

/**
 * A dynamic configuration ({@code <application>.configurators} or
 * {@code <service>:<version>:<group>.configurators}): parameters that override those of the instances
 * (or of the consumers) each item selects.
 *
 * @param header the rule's common fields; {@code scope} is {@code application} or {@code service}
 * @param items the overrides in the rule's order, never empty
 */
public record OverrideRule(RuleHeader header, List<Item> items) {

  public OverrideRule {
    items = List.copyOf(items);
  }

  /** Which side an item configures. */
  public enum Side { CONSUMER, PROVIDER }

  /**
   * One override.
   *
   * @param side the side it configures, or null for both (Dubbo then applies it where its addresses say)
   * @param enabled false: the item is skipped (Dubbo's default true)
   * @param addresses the hosts it applies to (consumers' for {@code side: consumer}, providers' for
   *     {@code side: provider}); empty for every one ({@code 0.0.0.0})
   * @param providerAddresses the providers a consumer-side item applies to; empty for every one
   * @param services the services it applies to (an application-scope rule); empty for every one
   * @param applications the applications it applies to; empty for every one
   * @param parameters the overridden parameters ({@code timeout}, {@code retries}, {@code weight},
   *     {@code disabled}, ...), never empty
   */
  public record Item(Side side, boolean enabled, List<AddressPattern> addresses,
      List<AddressPattern> providerAddresses, List<String> services, List<String> applications,
      Map<String, String> parameters) {

    public Item {
      addresses = List.copyOf(addresses);
      providerAddresses = List.copyOf(providerAddresses);
      services = List.copyOf(services);
      applications = List.copyOf(applications);
      parameters = Map.copyOf(parameters);
    }
  }
}
