package io.triplerpc.interop.dubbo.api.rest.springmvc;

import java.util.List;

/** The one implementation of {@link SignupService}. */
public final class SignupServices implements SignupService {

  @Override
  public String signup(String name, List<String> tags) {
    return name + " " + tags;
  }
}
