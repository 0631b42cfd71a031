package io.triplerpc.interop.dubbo.api.rest.springmvc;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * What Dubbo's Spring sample does not show, in its style (Spring Web on a plain interface): a default, an
 * optional repeated query parameter and an optional header; {@link #tags} has no path of its own (Spring
 * maps it to the type's, Dubbo 3.3.6 to the method's name), {@link #list} the same with one.
 */
@RequestMapping("/tags")
public interface TagService {

  /** The tags given (a repeated {@code tag}), at most {@code limit} (default 2), each prefixed by X-Prefix. */
  @GetMapping
  List<String> tags(@RequestParam(value = "tag", required = false) List<String> tags,
      @RequestParam(value = "limit", defaultValue = "2") int limit,
      @RequestHeader(value = "X-Prefix", required = false) String prefix);

  /** As {@link #tags}, at {@code /tags/list}. */
  @GetMapping("/list")
  List<String> list(@RequestParam(value = "tag", required = false) List<String> tags,
      @RequestParam(value = "limit", defaultValue = "2") int limit,
      @RequestHeader(value = "X-Prefix", required = false) String prefix);
}
