package io.triplerpc.interop.dubbo.api.rest.jaxrs;

import io.triplerpc.interop.dubbo.api.Item;
import java.math.BigDecimal;
import java.util.List;
import javax.ws.rs.DELETE;
import javax.ws.rs.DefaultValue;
import javax.ws.rs.GET;
import javax.ws.rs.HeaderParam;
import javax.ws.rs.POST;
import javax.ws.rs.PUT;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.QueryParam;

/**
 * What Dubbo's samples do not show, in their style (JAX-RS 2 on a plain interface, no Dubbo or Triple type):
 * defaults, repeated query parameters, headers, a POJO body and a path variable with an expression.
 */
@Path("/items")
public interface ItemResource {

  /** An item named {@code name}: {@code quantity} of it (default 1) at {@code price} (the X-Price header). */
  @GET
  @Path("/{name}")
  Item get(@PathParam("name") String name, @QueryParam("quantity") @DefaultValue("1") int quantity,
      @HeaderParam("X-Price") BigDecimal price);

  /** Every {@code name} given (a repeated query parameter), sorted when {@code sorted} (default false). */
  @GET
  @Path("/all/names")
  List<String> names(@QueryParam("name") List<String> names, @QueryParam("sorted") @DefaultValue("false") boolean sorted);

  /** The item sent (the body) with its quantity times {@code times} (default 2), its name with the X-Tag header. */
  @POST
  @Path("/new")
  Item add(Item item, @QueryParam("times") @DefaultValue("2") int times, @HeaderParam("X-Tag") String tag);

  /** An item named {@code name} whose quantity is the path's number (digits only). */
  @PUT
  @Path("/{name}/quantity/{quantity: [0-9]+}")
  Item resize(@PathParam("name") String name, @PathParam("quantity") int quantity);

  /** Whether {@code name} is one to remove ({@code "apple"} is). */
  @DELETE
  @Path("/{name}")
  boolean remove(@PathParam("name") String name);
}
