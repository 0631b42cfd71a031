package io.triplerpc.registry.internal.rules;

import java.util.List;

/**
 * An application's tag rule ({@code <application>.tag-router}): each tag names the addresses of the
 * instances that carry it, whatever their own static tag.
 *
 * @param header the rule's common fields
 * @param tags the tags in the rule's order, never empty, names unique
 */
public record TagRule(RuleHeader header, List<Tag> tags) {

  public TagRule {
    tags = List.copyOf(tags);
  }

  /**
   * One tag of a rule.
   *
   * @param name the tag, as a request names it in {@code dubbo.tag}
   * @param addresses the instances that carry it, never empty
   */
  public record Tag(String name, List<AddressPattern> addresses) {

    public Tag {
      addresses = List.copyOf(addresses);
    }

    /** Whether the instance at {@code host:port} carries this tag. */
    public boolean matches(String host, int port) {
      for (AddressPattern address : addresses) {
        if (address.matches(host, port)) {
          return true;
        }
      }
      return false;
    }
  }
}
