package io.triplerpc.interop.dubbo.api.rest.jaxrs;

/** The one implementation of {@link FormResource}. */
public final class FormResources implements FormResource {

  @Override
  public String login(String user, boolean remember) {
    return user + (remember ? " remembered" : " for now");
  }
}
