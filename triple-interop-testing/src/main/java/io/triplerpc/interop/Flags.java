package io.triplerpc.interop;

import java.util.HashMap;
import java.util.Map;

/** {@code --name=value} flags, as gRPC's interop programs take them. */
final class Flags {

  private final Map<String, String> values = new HashMap<>();

  Flags(String[] args) {
    for (String arg : args) {
      if (!arg.startsWith("--") || arg.indexOf('=') < 0) {
        throw new IllegalArgumentException("Flags look like --name=value; got: " + arg);
      }
      int eq = arg.indexOf('=');
      values.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
  }

  String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String require(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }

  /** Fails on TLS: the interop client speaks cleartext HTTP/2 only, for now. */
  void rejectTls() {
    if (Boolean.parseBoolean(get("use_tls", "false"))) {
      throw new IllegalArgumentException("The interop client speaks cleartext HTTP/2 only (no server host override for TLS yet); use --use_tls=false");
    }
  }
}
