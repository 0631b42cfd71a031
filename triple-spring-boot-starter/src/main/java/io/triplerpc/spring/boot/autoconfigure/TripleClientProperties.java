package io.triplerpc.spring.boot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The clients made for {@code @TripleReference}s: {@code triple.client.*}, applied to every one of them
 * (with the settings clients share with a server in {@link TransportProperties}), and named targets,
 * {@code triple.client.targets.<name>.*}, for the references that name one:
 *
 * <pre>
 * triple:
 *   client:
 *     deadline: 5s
 *     targets:
 *       payments:
 *         address: dns:///payments.prod.svc:50051
 *         load-balancing: pick-first
 *         bearer-token: ${PAYMENTS_TOKEN}
 * </pre>
 *
 * {@code @TripleReference(target = "payments")} then calls {@code dns:///payments.prod.svc:50051} with a
 * 5 s deadline, pick-first and the token; a target's property set wins over the same one of
 * {@code triple.client.*}, the others are inherited. Unset properties keep the defaults of
 * {@code TripleClient.Builder}.
 */
@ConfigurationProperties("triple.client")
public class TripleClientProperties extends ClientProperties {

  /**
   * Named targets: their address and the settings that differ from triple.client.*, for the references
   * that name them (@TripleReference(target = "name")).
   */
  private final Map<String, Target> targets = new LinkedHashMap<>();

  public Map<String, Target> getTargets() {
    return targets;
  }

  /** A named target: {@code triple.client.targets.<name>.*}. */
  public static class Target extends ClientProperties {

    /**
     * The servers, as @TripleReference's address takes them (host:port, dns:///..., static://...); the
     * application's registry when unset. A reference's own address wins.
     */
    private String address;

    public String getAddress() {
      return address;
    }

    public void setAddress(String address) {
      this.address = address;
    }
  }
}
