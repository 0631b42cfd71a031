package io.triplerpc.benchmark.triple;

import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequestService;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.HttpMethodRequests;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResource;
import io.triplerpc.interop.dubbo.api.rest.jaxrs.ItemResources;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.DemoServices;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagService;
import io.triplerpc.interop.dubbo.api.rest.springmvc.TagServices;

/**
 * The Triple server of the REST benchmark's comparison with Dubbo ({@code scripts/bench-rest.sh}, contender
 * {@code triple-annotated}), run in a JVM of its own: the annotated Java interfaces of
 * triple-dubbo-interop's api module (JAX-RS and Spring Web, as Dubbo's REST samples declare them) with the
 * very implementation classes the Dubbo peer exports with {@code --rest}, so that both serve the same routes
 * from the same code. The benchmark loads {@link ItemResource}'s GET and POST; the other three are served as
 * the peer serves them, so that both look a request up among the same routes. The server's defaults.
 * {@code --port=N} (0 for a free one); prints {@code LISTENING <port>}, runs until killed.
 */
public final class AnnotatedRestServer {

  private AnnotatedRestServer() {}

  /** A started server with the four services on {@code port} (0: a free one) at 127.0.0.1. */
  static TripleServer start(int port) throws Exception {
    return TripleServer.builder()
        .host("127.0.0.1")
        .port(port)
        .addService(HttpMethodRequestService.class, new HttpMethodRequests())
        .addService(ItemResource.class, new ItemResources())
        .addService(DemoService.class, new DemoServices())
        .addService(TagService.class, new TagServices())
        .build()
        .start();
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (String arg : args) {
      if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      }
    }
    TripleServer server = start(port);
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    System.out.println("LISTENING " + server.port());
    server.awaitTermination();
  }
}
