package io.triplerpc.testing;

import java.io.IOException;

/** Classes that break {@link ArchitectureRules#awaitPeersOnlyWhereAProcessStarts} or keep it; never run. */
final class AwaitPeersRuleFixtures {

  private AwaitPeersRuleFixtures() {}

  /** Polls, and starts nothing: what the rule refuses. */
  static final class PollsInProcess {
    void await(boolean[] state) {
      AwaitPeers.until(() -> state[0], "set in this process");
    }
  }

  /** Polls a peer that a helper of the same test sources starts in another process. */
  static final class PollsAnotherProcess {
    void await() throws IOException {
      Process peer = PeerLauncher.launch();
      AwaitPeers.until(() -> !peer.isAlive(), "the peer exits");
    }
  }

  /** Starts the peer process. */
  static final class PeerLauncher {
    static Process launch() throws IOException {
      return new ProcessBuilder("true").start();
    }
  }
}
