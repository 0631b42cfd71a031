package io.triplerpc.transport.netty.http;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** REST routes under the docs page's folder: one beside the page's files, one that could take their names too. */
@Path("/docs")
public interface DocsFolderRoutes {

  @GET
  @Path("/notes/{id}")
  String note(@PathParam("id") String id);

  @GET
  @Path("/{name}")
  String file(@PathParam("name") String name);
}
