package io.triplerpc.interop.dubbo.api.rest.springmvc;

import java.util.ArrayList;
import java.util.List;

/** The one implementation of {@link TagService}, which the Dubbo peer exports and Triple's tests serve. */
public final class TagServices implements TagService {

  @Override
  public List<String> tags(List<String> tags, int limit, String prefix) {
    List<String> out = new ArrayList<>();
    if (tags != null) {
      for (String tag : tags) {
        if (out.size() < limit) {
          out.add(prefix == null ? tag : prefix + tag);
        }
      }
    }
    return out;
  }

  @Override
  public List<String> list(List<String> tags, int limit, String prefix) {
    return tags(tags, limit, prefix);
  }
}
