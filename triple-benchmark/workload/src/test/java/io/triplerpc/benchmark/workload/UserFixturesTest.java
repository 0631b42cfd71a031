package io.triplerpc.benchmark.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UserFixturesTest {

  @Test
  void messagesHaveTheSizesTheWorkloadPromises() {
    int user = UserFixtures.getUser(UserFixtures.GET_USER).getSerializedSize();
    assertTrue(user >= 90 && user <= 130, "user is " + user + " bytes");
    int large = UserFixtures.listUserLarge(UserFixtures.LIST_USER).getSerializedSize();
    assertTrue(large >= 95_000 && large <= 130_000, "large page is " + large + " bytes");
    assertEquals(UserFixtures.PAGE_SIZE, UserFixtures.listUser(UserFixtures.LIST_USER).getUsersCount());
    assertEquals(UserFixtures.STREAM_COUNT, UserFixtures.streamUsers(UserFixtures.STREAM_USERS).size());
  }
}
