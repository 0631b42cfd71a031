package io.triplerpc.interop.dubbo.api.rest.jaxrs;

/** The one implementation of {@link MediaResource}. */
public final class MediaResources implements MediaResource {

  @Override
  public String json(String body) {
    return "json " + body;
  }

  @Override
  public String any() {
    return "any";
  }
}
