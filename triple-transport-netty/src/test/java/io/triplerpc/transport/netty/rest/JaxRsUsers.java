package io.triplerpc.transport.netty.rest;

import io.triplerpc.TripleService;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.util.List;

/** A plain Java service with JAX-RS annotations, as a Dubbo 3.3 REST service declares them. */
@TripleService(name = "rest.test.Users")
@Path("/users")
public interface JaxRsUsers {

  /** A plain value class. */
  final class User {
    public long id;
    public String name;
    public List<String> tags;

    public User() {}

    User(long id, String name, List<String> tags) {
      this.id = id;
      this.name = name;
      this.tags = tags;
    }
  }

  @GET
  @Path("/{id}")
  User get(@PathParam("id") long id, @QueryParam("tag") List<String> tags);

  @POST
  User create(User user);

  @PUT
  @Path("{id}")
  User rename(@PathParam("id") long id, @QueryParam("name") String name);

  @DELETE
  @Path("/{id: [0-9]+}")
  boolean delete(@PathParam("id") long id);

  @GET
  @Path("/search")
  List<User> search(@QueryParam("name") String name, @QueryParam("limit") @DefaultValue("2") int limit,
      @HeaderParam("X-Tenant") String tenant);
}
