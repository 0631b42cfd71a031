package io.triplerpc.interop.dubbo.api.rest.jaxrs;

import javax.ws.rs.Consumes;
import javax.ws.rs.GET;
import javax.ws.rs.POST;
import javax.ws.rs.Path;
import javax.ws.rs.Produces;

/**
 * JAX-RS's {@code @Consumes} and {@code @Produces}, on the type and on methods, deciding whether a request maps:
 * a body of another media type is 415, an {@code Accept} that none produced satisfies is 406.
 */
@Path("/media")
@Produces("application/json")
public interface MediaResource {

  /** A JSON body only; the type's JSON answer. */
  @POST
  @Path("/json")
  @Consumes("application/json")
  String json(String body);

  /** The type's {@code @Produces}: JSON. */
  @GET
  @Path("/any")
  String any();
}
