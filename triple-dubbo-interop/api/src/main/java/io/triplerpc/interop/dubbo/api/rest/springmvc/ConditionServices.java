package io.triplerpc.interop.dubbo.api.rest.springmvc;

/** The one implementation of {@link ConditionService}: each method answers with its name (and its arguments). */
public final class ConditionServices implements ConditionService {

  @Override
  public String fast() {
    return "fast";
  }

  @Override
  public String otherMode(String mode) {
    return "otherMode " + mode;
  }

  @Override
  public String debug() {
    return "debug";
  }

  @Override
  public String quiet() {
    return "quiet";
  }

  @Override
  public String page(int limit, int page) {
    return "page " + page + " of " + limit;
  }

  @Override
  public String second() {
    return "second";
  }

  @Override
  public String unversioned() {
    return "unversioned";
  }

  @Override
  public String json(String body) {
    return "json " + body;
  }

  @Override
  public String produced() {
    return "produced";
  }
}
