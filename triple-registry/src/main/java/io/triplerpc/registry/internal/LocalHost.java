package io.triplerpc.registry.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** The machine's address as others see it: its first non-loopback IPv4 address, else 127.0.0.1. */
public final class LocalHost {

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LocalHost.class);

  private LocalHost() {}

  /** The first non-loopback, non-link-local IPv4 address of an interface that is up, else 127.0.0.1. */
  public static String address() {
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
          continue;
        }
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
            return address.getHostAddress();
          }
        }
      }
    } catch (SocketException e) {
      log.warn("Could not list network interfaces ({}); taking 127.0.0.1", e.toString());
    }
    return "127.0.0.1";
  }
}
