package io.triplerpc.interop.dubbo.architecture;

import io.triplerpc.testing.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The interop tests poll only the Dubbo peers they start in JVMs of their own ({@code DubboProcess}):
 * the one module whose tests have other processes to wait for.
 */
class PollingArchitectureTest {

  @Test
  void onlyTestsThatStartAnotherProcessPoll() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(getClass()).check(ArchitectureRules.moduleOf(getClass()));
  }
}
