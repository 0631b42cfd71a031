package io.triplerpc.shaded.tests;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A name server on loopback that knows one name's IPv4 address, answering over UDP as RFC 1035
 * says: the question echoed, one A record for it, no data for other types of it, NXDOMAIN for other
 * names. Written on the JDK's sockets, not on Netty's (triple-testing's TestDnsServer is on Netty 4.2,
 * and this module's Netty is Boot 3.5's 4.1).
 */
final class OneNameDnsServer implements AutoCloseable {

  private static final int TYPE_A = 1;

  private final String name;
  private final byte[] address;
  private final DatagramSocket socket;
  private final AtomicInteger aQueries = new AtomicInteger();

  private OneNameDnsServer(String name, InetAddress address) throws SocketException {
    this.name = name.toLowerCase(Locale.ROOT);
    this.address = address.getAddress();
    this.socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
  }

  /** Serves {@code name} as {@code address} (IPv4) until closed. */
  static OneNameDnsServer start(String name, InetAddress address) throws SocketException {
    OneNameDnsServer server = new OneNameDnsServer(name, address);
    Thread thread = new Thread(server::serve, "one-name-dns");
    thread.setDaemon(true);
    thread.start();
    return server;
  }

  int port() {
    return socket.getLocalPort();
  }

  /** The A queries for the name so far. */
  int aQueries() {
    return aQueries.get();
  }

  private void serve() {
    byte[] buffer = new byte[512];
    while (!socket.isClosed()) {
      DatagramPacket query = new DatagramPacket(buffer, buffer.length);
      try {
        socket.receive(query);
        byte[] answer = answer(ByteBuffer.wrap(query.getData(), 0, query.getLength()));
        if (answer != null) {
          socket.send(new DatagramPacket(answer, answer.length, query.getSocketAddress()));
        }
      } catch (IOException closedOrMalformed) {
        // Closed: the loop ends; anything else is a query this server does not answer.
      } catch (RuntimeException malformed) {
        // A truncated query: no answer, as a name server drops what it cannot parse.
      }
    }
  }

  /** The response to one query, or null if it is not one question. */
  private byte[] answer(ByteBuffer query) {
    short id = query.getShort(0);
    if (query.getShort(4) != 1) {
      return null;
    }
    StringBuilder asked = new StringBuilder();
    int at = 12;
    for (int length = query.get(at) & 0xff; length != 0; length = query.get(at) & 0xff) {
      if (asked.length() > 0) {
        asked.append('.');
      }
      for (int i = 1; i <= length; i++) {
        asked.append((char) query.get(at + i));
      }
      at += length + 1;
    }
    int type = query.getShort(at + 1) & 0xffff;
    int questionEnd = at + 5;
    boolean known = asked.toString().toLowerCase(Locale.ROOT).equals(name);
    boolean withRecord = known && type == TYPE_A;
    ByteBuffer out = ByteBuffer.allocate(questionEnd + (withRecord ? 16 : 0));
    out.putShort(id);
    out.putShort((short) (known ? 0x8180 : 0x8183)); // a response, recursion desired and available; NXDOMAIN if unknown
    out.putShort((short) 1).putShort((short) (withRecord ? 1 : 0)).putShort((short) 0).putShort((short) 0);
    out.put(query.array(), query.arrayOffset() + 12, questionEnd - 12);
    if (withRecord) {
      aQueries.incrementAndGet();
      out.putShort((short) 0xc00c); // the name, by a pointer to the question's
      out.putShort((short) TYPE_A).putShort((short) 1).putInt(60).putShort((short) 4).put(address);
    }
    return out.array();
  }

  @Override
  public void close() {
    socket.close();
  }
}
