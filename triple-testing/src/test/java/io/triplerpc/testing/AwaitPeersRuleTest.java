package io.triplerpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ArchitectureRules#awaitPeersOnlyWhereAProcessStarts} on {@link AwaitPeersRuleFixtures}. */
class AwaitPeersRuleTest {

  private static final JavaClasses TESTS = ArchitectureRules.moduleOf(AwaitPeersRuleTest.class);

  @Test
  void onlyTheClassThatPollsWithoutStartingAProcessBreaksTheRule() {
    List<String> violations = ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(AwaitPeersRuleTest.class)
        .evaluate(TESTS).getFailureReport().getDetails();
    assertEquals(1, violations.size(), violations::toString);
    assertTrue(violations.get(0).startsWith(AwaitPeersRuleFixtures.PollsInProcess.class.getName() + " polls"),
        violations::toString);
  }

  @Test
  void aTestClassLetOffByNameKeepsTheRule() {
    ArchitectureRules.awaitPeersOnlyWhereAProcessStarts(AwaitPeersRuleTest.class,
        AwaitPeersRuleFixtures.class.getName()).check(TESTS);
  }
}
