package io.triplerpc.conformance;

import connectrpc.conformance.v1.ConfigOuterClass.HTTPVersion;
import connectrpc.conformance.v1.ServerCompat.ServerCompatRequest;
import connectrpc.conformance.v1.ServerCompat.ServerCompatResponse;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The server under test that {@code connectconformance --mode server} starts, once per server
 * configuration: it reads one {@code ServerCompatRequest} from stdin (a 4-byte big-endian length, then
 * the message), starts a Triple server on a free loopback port as asked (TLS with the runner's
 * certificate, client certificates, a message size limit, HTTP/3 beside TCP), writes one {@code ServerCompatResponse} the
 * same way to stdout, and serves {@code ConformanceService} until it is terminated (SIGTERM).
 */
public final class ServerUnderTest {

  private static final String HOST = "127.0.0.1";

  private ServerUnderTest() {}

  public static void main(String[] args) throws Exception {
    ServerCompatRequest request = ServerCompatRequest.parseFrom(readFrame(System.in));
    TripleServer.Builder builder = TripleServer.builder()
        .host(HOST)
        .port(0)
        .addService(ConformanceService.class, new ConformanceServiceImpl());
    if (request.getMessageReceiveLimit() > 0) {
      builder.maxInboundMessageSize(request.getMessageReceiveLimit());
    }
    byte[] pemCertificate = new byte[0];
    if (request.getUseTls()) {
      Path directory = Files.createTempDirectory("triple-conformance-tls");
      directory.toFile().deleteOnExit();
      Path certificate = write(directory, "server.pem", request.getServerCreds().getCert().toByteArray());
      Path key = write(directory, "server.key", RunnerKeys.toPkcs8Pem(request.getServerCreds().getKey().toByteArray()));
      TlsConfig.Builder tls = TlsConfig.builder().keyCertChain(certificate, key);
      if (!request.getClientTlsCert().isEmpty()) {
        Path clientCertificate = write(directory, "client.pem", request.getClientTlsCert().toByteArray());
        tls.trustCertificates(clientCertificate).clientAuth(TlsConfig.ClientAuth.REQUIRE);
      }
      builder.tls(tls.build());
      pemCertificate = request.getServerCreds().getCert().toByteArray();
    }
    if (request.getHttpVersion() == HTTPVersion.HTTP_VERSION_3) {
      // The runner asks for HTTP/3 only with TLS; the UDP port has the TCP port's number, which it is told.
      builder.http3();
    }
    TripleServer server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow();
      try {
        server.awaitTermination(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "conformance-server-shutdown"));
    writeFrame(System.out, ServerCompatResponse.newBuilder()
        .setHost(HOST)
        .setPort(server.port())
        .setPemCert(com.google.protobuf.ByteString.copyFrom(pemCertificate))
        .build()
        .toByteArray());
    server.awaitTermination();
  }

  private static Path write(Path directory, String name, byte[] content) throws IOException {
    Path file = directory.resolve(name);
    Files.write(file, content);
    file.toFile().deleteOnExit();
    return file;
  }

  /** One length-prefixed message of the runner's protocol. */
  static byte[] readFrame(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    byte[] message = new byte[data.readInt()];
    data.readFully(message);
    return message;
  }

  static void writeFrame(OutputStream out, byte[] message) throws IOException {
    DataOutputStream data = new DataOutputStream(out);
    data.writeInt(message.length);
    data.write(message);
    data.flush();
  }
}
