package io.triplerpc.interop.dubbo.api.rest.springmvc;

import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** Spring's {@code @RequestParam} reads a form body's fields too, after the query's: request parameters. */
@RequestMapping("/signup")
public interface SignupService {

  /** {@code name} (required) and every {@code tag}, from the query or a form body. */
  @PostMapping("/new")
  String signup(@RequestParam("name") String name, @RequestParam(value = "tag", required = false) List<String> tags);
}
