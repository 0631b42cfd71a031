package io.triplerpc.interop.dubbo.api.rest.jaxrs;

/**
 * The one implementation of {@link HttpMethodRequestService}, which the Dubbo peer exports and Triple's
 * tests serve, so that a difference in an answer can only come from the framework: each method greets
 * the name it was given, as the sample's own implementation does.
 */
public final class HttpMethodRequests implements HttpMethodRequestService {

  private static String hello(String name) {
    return "Hello " + name;
  }

  @Override
  public String sayHelloPost(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloDelete(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloHead(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloGet(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloPut(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloPatch(String hello) {
    return hello(hello);
  }

  @Override
  public String sayHelloOptions(String hello) {
    return hello(hello);
  }
}
