package io.triplerpc.benchmark.registry;

import java.util.HashMap;
import java.util.Map;

/** {@code --name N} pairs (or {@code --name=N}) of the harness's command line. */
final class Flags {

  private Flags() {}

  static Map<String, Integer> parse(String[] args) {
    Map<String, Integer> flags = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || (eq < 0 && i + 1 >= args.length)) {
        throw new IllegalArgumentException("Expected --name N pairs, got: " + arg);
      }
      String name = arg.substring(2);
      eq = name.indexOf('=');
      if (eq >= 0) {
        flags.put(name.substring(0, eq), Integer.parseInt(name.substring(eq + 1)));
      } else {
        flags.put(name, Integer.parseInt(args[++i]));
      }
    }
    return flags;
  }
}
