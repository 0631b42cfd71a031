package io.triplerpc.internal.server;

import io.triplerpc.AccessPolicy;
import io.triplerpc.TripleAdmin;
import io.triplerpc.spi.AdminView;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Builds a {@link TripleAdmin}: an {@link AdminEndpoint} without a server. */
public final class TripleAdminBuilder implements TripleAdmin.Builder {

  private InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
  private AdminGuard guard = AdminGuard.OPEN;
  private final List<AdminView> views = new ArrayList<>();

  @Override
  public TripleAdminBuilder port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("admin port out of range 0-65535: " + port);
    }
    this.address = new InetSocketAddress("127.0.0.1", port);
    this.guard = AdminGuard.OPEN;
    return this;
  }

  @Override
  public TripleAdminBuilder bind(InetSocketAddress address, AccessPolicy policy) {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(policy, "policy");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("admin address unresolved: " + address);
    }
    this.address = address;
    this.guard = new AdminGuard(policy);
    return this;
  }

  @Override
  public TripleAdminBuilder view(AdminView view) {
    Objects.requireNonNull(view, "view");
    AdminEndpoint.checkView(view, views);
    views.add(view);
    return this;
  }

  @Override
  public TripleAdmin start() {
    if (views.isEmpty()) {
      throw new IllegalStateException("An admin endpoint without a server shows views: add one with view(...)");
    }
    AdminEndpoint endpoint = AdminEndpoint.start(null, address, null, views, guard);
    return new TripleAdmin() {
      @Override
      public int port() {
        return endpoint.port();
      }

      @Override
      public void close() {
        endpoint.shutdown();
      }
    };
  }
}
