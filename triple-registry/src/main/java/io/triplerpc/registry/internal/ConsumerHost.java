package io.triplerpc.registry.internal;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Enumeration;

/** The consumer's own address, as Apache Dubbo's {@code NetUtils.getLocalHost} finds it for its consumer URL. */
final class ConsumerHost {

  private static volatile String local;

  private ConsumerHost() {}

  /**
   * The local host's address if it is an IPv4 address other than a loopback one (Dubbo looks there first),
   * else the first such address of an interface that is up (a site-local one preferred), else
   * {@code 127.0.0.1}. Looked up once.
   */
  static String local() {
    String host = local;
    if (host == null) {
      host = lookUp();
      local = host;
    }
    return host;
  }

  private static boolean usable(InetAddress address) {
    return address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()
        && !address.isAnyLocalAddress();
  }

  private static String lookUp() {
    try {
      InetAddress localHost = InetAddress.getLocalHost();
      if (usable(localHost)) {
        return localHost.getHostAddress();
      }
    } catch (IOException | RuntimeException e) {
      // The host name does not resolve: look at the interfaces.
    }
    String any = null;
    try {
      Enumeration<NetworkInterface> nics = NetworkInterface.getNetworkInterfaces();
      while (nics != null && nics.hasMoreElements()) {
        NetworkInterface nic = nics.nextElement();
        if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
          continue;
        }
        for (Enumeration<InetAddress> addresses = nic.getInetAddresses(); addresses.hasMoreElements(); ) {
          InetAddress address = addresses.nextElement();
          if (usable(address)) {
            if (address.isSiteLocalAddress()) {
              return address.getHostAddress();
            }
            any = any == null ? address.getHostAddress() : any;
          }
        }
      }
    } catch (SocketException | RuntimeException e) {
      // No interface to read: the loopback address below.
    }
    return any != null ? any : "127.0.0.1";
  }
}
