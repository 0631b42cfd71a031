package io.triplerpc.benchmark.workload;

import com.google.protobuf.ByteString;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserRequest;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.ListUserRequest;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.StreamUsersRequest;
import io.triplerpc.benchmark.workload.proto.User;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The server logic and the requests of the workload, identical for every contender. {@code getUser}
 * builds a fresh user (about 100 bytes) per call, as dubbo-benchmark does; the pages and the
 * streamed users are built once, so the large cases measure transport and serialization.
 */
public final class UserFixtures {

  /** Users in a small page. */
  public static final int PAGE_SIZE = 15;
  /** Users in the large page (about 100 KB). */
  public static final int LARGE_PAGE_SIZE = 1000;
  /** Users per streamUsers call. */
  public static final int STREAM_COUNT = 1000;

  private static final Page PAGE = page(1, PAGE_SIZE);
  private static final Page LARGE_PAGE = page(1, LARGE_PAGE_SIZE);
  private static final List<User> STREAMED = users(STREAM_COUNT);

  public static final ExistUserRequest EXIST_USER = ExistUserRequest.newBuilder().setEmail("ada@example.com").build();
  public static final User CREATE_USER = user(42);
  public static final GetUserRequest GET_USER = GetUserRequest.newBuilder().setId(42).build();
  public static final ListUserRequest LIST_USER = ListUserRequest.newBuilder().setPageNo(1).build();
  public static final StreamUsersRequest STREAM_USERS = StreamUsersRequest.newBuilder().setCount(STREAM_COUNT).build();

  private UserFixtures() {}

  public static ExistUserResponse existUser(ExistUserRequest request) {
    return ExistUserResponse.newBuilder().setExist(request.getEmail().isEmpty() || request.getEmail().indexOf('@') > 0).build();
  }

  public static CreateUserResponse createUser(User user) {
    return CreateUserResponse.newBuilder().setCreated(user.getId() > 0).build();
  }

  public static User getUser(GetUserRequest request) {
    return user(request.getId());
  }

  public static Page listUser(ListUserRequest request) {
    return PAGE;
  }

  public static Page listUserLarge(ListUserRequest request) {
    return LARGE_PAGE;
  }

  /** The users a streamUsers call sends, in order. */
  public static List<User> streamUsers(StreamUsersRequest request) {
    return request.getCount() >= STREAMED.size() ? STREAMED : STREAMED.subList(0, request.getCount());
  }

  /** What echo answers: the request itself. */
  public static Payload echo(Payload request) {
    return request;
  }

  /** A payload of {@code size} bytes (a repeating pattern: no transport here compresses). */
  public static Payload payload(int size) {
    byte[] body = new byte[size];
    for (int i = 0; i < size; i++) {
      body[i] = (byte) i;
    }
    return Payload.newBuilder().setBody(ByteString.copyFrom(body)).build();
  }

  /** A user of about 100 bytes on the wire. */
  public static User user(long id) {
    return User.newBuilder()
        .setId(id)
        .setName("Doug Lea")
        .setSex(1)
        .setBirthday(-283996800000L)
        .setEmail("dev@triplerpc.io")
        .setMobile("18612345678")
        .setAddress("Oswego, NY")
        .setIcon("/u/" + id + ".png")
        .setStatus(1)
        .setCreateTime(1700000000000L)
        .setUpdateTime(1700000000000L)
        .addPermissions(1)
        .addPermissions(2)
        .addPermissions(3)
        .build();
  }

  private static List<User> users(int count) {
    List<User> users = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      users.add(user(i + 1));
    }
    return Collections.unmodifiableList(users);
  }

  private static Page page(int pageNo, int size) {
    return Page.newBuilder().setPageNo(pageNo).setTotal(size).addAllUsers(users(size)).build();
  }

  /** Checks an answer of each kind, so a broken adapter cannot post a score. */
  public static final class Check {

    private Check() {}

    public static void existUser(ExistUserResponse response) {
      require(response.getExist(), "existUser answered false");
    }

    public static void createUser(CreateUserResponse response) {
      require(response.getCreated(), "createUser answered false");
    }

    public static void getUser(User user) {
      require(user.getId() == GET_USER.getId() && user.getName().equals("Doug Lea"), "getUser answered " + user);
    }

    public static void listUser(Page page) {
      require(page.getUsersCount() == PAGE_SIZE, "listUser answered " + page.getUsersCount() + " users");
    }

    public static void listUserLarge(Page page) {
      require(page.getUsersCount() == LARGE_PAGE_SIZE, "listUserLarge answered " + page.getUsersCount() + " users");
    }

    public static void echo(Payload sent, Payload answer) {
      require(answer.getBody().equals(sent.getBody()), "echo answered " + answer.getBody().size() + " bytes for "
          + sent.getBody().size());
    }

    public static void streamUsers(int received) {
      require(received == STREAM_COUNT, "streamUsers delivered " + received + " users");
    }

    private static void require(boolean condition, String message) {
      if (!condition) {
        throw new IllegalStateException(message);
      }
    }
  }
}
