package io.triplerpc.registry.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Enumeration;

/** The consumer's own address, as Apache Dubbo's {@code NetUtils.getLocalHost} finds it for its consumer URL. */
public final class ConsumerHost {

  private static volatile String local;

  private ConsumerHost() {}

  /**
   * The first IPv4 address of an interface that is up and not a loopback (a site-local one preferred), else
   * the local host's address, else {@code 127.0.0.1}. Looked up once.
   */
  public static String local() {
    String host = local;
    if (host == null) {
      host = lookUp();
      local = host;
    }
    return host;
  }

  private static String lookUp() {
    String any = null;
    try {
      for (Enumeration<NetworkInterface> it = NetworkInterface.getNetworkInterfaces(); it != null && it.hasMoreElements(); ) {
        NetworkInterface nic = it.nextElement();
        if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
          continue;
        }
        for (Enumeration<InetAddress> addresses = nic.getInetAddresses(); addresses.hasMoreElements(); ) {
          InetAddress address = addresses.nextElement();
          if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
            if (address.isSiteLocalAddress()) {
              return address.getHostAddress();
            }
            any = any == null ? address.getHostAddress() : any;
          }
        }
      }
    } catch (SocketException | RuntimeException e) {
      // Fall back below.
    }
    if (any != null) {
      return any;
    }
    try {
      return InetAddress.getLocalHost().getHostAddress();
    } catch (java.io.IOException e) {
      return "127.0.0.1";
    }
  }
}
