package io.triplerpc.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds the command-line peers that {@code go install} puts on a machine (grpcurl, h2spec,
 * connectconformance), and installs one where Go is present but the tool is not.
 */
public final class GoTools {

  private GoTools() {}

  /**
   * The executable {@code name} on the {@code PATH} or where {@code go install} puts it ({@code $GOBIN},
   * else the first {@code $GOPATH}'s {@code bin}, else {@code ~/go/bin}); null if there is none.
   */
  public static Path find(String name) {
    List<Path> candidates = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        candidates.add(Path.of(dir, name));
      }
    }
    String gobin = System.getenv("GOBIN");
    if (gobin != null && !gobin.isEmpty()) {
      candidates.add(Path.of(gobin, name));
    }
    String gopath = System.getenv("GOPATH");
    if (gopath != null && !gopath.isEmpty()) {
      candidates.add(Path.of(gopath.split(File.pathSeparator)[0], "bin", name));
    }
    candidates.add(Path.of(System.getProperty("user.home"), "go", "bin", name));
    return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
  }

  /**
   * The executable {@code name}, installed first with {@code go install packageAtVersion} if it is
   * missing and Go is on the {@code PATH}; null if it is missing and cannot be installed.
   */
  public static Path findOrInstall(String name, String packageAtVersion) throws IOException, InterruptedException {
    Path found = find(name);
    if (found != null || find("go") == null) {
      return found;
    }
    Process install = new ProcessBuilder(find("go").toString(), "install", packageAtVersion)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    if (!install.waitFor(10, TimeUnit.MINUTES)) {
      install.destroyForcibly();
      return null;
    }
    return find(name);
  }
}
