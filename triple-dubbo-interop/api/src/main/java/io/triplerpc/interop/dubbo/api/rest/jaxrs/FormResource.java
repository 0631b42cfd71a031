package io.triplerpc.interop.dubbo.api.rest.jaxrs;

import javax.ws.rs.Consumes;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.FormParam;
import javax.ws.rs.POST;
import javax.ws.rs.Path;

/** A form body ({@code application/x-www-form-urlencoded}) bound field by field with JAX-RS's {@code @FormParam}. */
@Path("/forms")
public interface FormResource {

  /** {@code user} and {@code remember} (default false) from the form. */
  @POST
  @Path("/login")
  @Consumes("application/x-www-form-urlencoded")
  String login(@FormParam("user") String user, @FormParam("remember") @DefaultValue("false") boolean remember);
}
