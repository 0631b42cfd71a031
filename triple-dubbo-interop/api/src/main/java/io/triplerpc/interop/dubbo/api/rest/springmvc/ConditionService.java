package io.triplerpc.interop.dubbo.api.rest.springmvc;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Spring mappings that share a path and an HTTP method and differ in their conditions ({@code params},
 * {@code headers}, {@code consumes}, {@code produces}), so that which method a request maps to, and the answer
 * when it maps to none, are compared. Each method answers with its own name.
 */
@RequestMapping("/conditions")
public interface ConditionService {

  /** {@code ?mode=fast}. */
  @GetMapping(path = "/mode", params = "mode=fast")
  String fast();

  /** Any other mode, or none. */
  @GetMapping(path = "/mode", params = "mode!=fast")
  String otherMode(@RequestParam(value = "mode", required = false) String mode);

  /** {@code ?debug} present. */
  @GetMapping(path = "/flag", params = "debug")
  String debug();

  /** No {@code debug}. */
  @GetMapping(path = "/flag", params = "!debug")
  String quiet();

  /** Only with {@code limit} and {@code page}: otherwise no mapping of the path takes the request. */
  @GetMapping(path = "/page", params = {"limit", "page"})
  String page(@RequestParam("limit") int limit, @RequestParam("page") int page);

  /** The header {@code X-Version: 2}. */
  @GetMapping(path = "/version", headers = "X-Version=2")
  String second();

  /** No {@code X-Version} header. */
  @GetMapping(path = "/version", headers = "!X-Version")
  String unversioned();

  /** A JSON body only. */
  @PostMapping(path = "/body", consumes = "application/json")
  String json(@RequestBody String body);

  /** An answer for a client that accepts JSON. */
  @GetMapping(path = "/produced", produces = "application/json")
  String produced();
}
