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
   * @param side the side it configures, or null: Dubbo 3 applies such an item on neither side (its
   *     configurators compare the item's side with the configured URL's), and neither does Triple
   * @param enabled false: the item is skipped; as Dubbo's {@code ConfigParser} reads it, the rule's
   *     {@code enabled} for an item without a {@code type} (or of type {@code general}), else the item's own
   * @param addresses the hosts it applies to (consumers' for {@code side: consumer}, providers' for
   *     {@code side: provider}); empty for every one ({@code 0.0.0.0})
   * @param providerAddresses the providers a consumer-side item applies to; empty for every one
   * @param services the services it applies to (an application-scope rule); empty for every one
   * @param applications the applications it applies to; empty for every one
   * @param parameters the overridden parameters ({@code timeout}, {@code retries}, {@code weight},
   *     {@code disabled}, ...), never empty; those four are checked when parsed (a positive timeout in
   *     milliseconds, retries from 0 to 1000, a weight of at least 0, true or false), others kept as text
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
