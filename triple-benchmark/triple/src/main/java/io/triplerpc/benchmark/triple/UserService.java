package io.triplerpc.benchmark.triple;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleService;
import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserRequest;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.ListUserRequest;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.StreamUsersRequest;
import io.triplerpc.benchmark.workload.proto.User;
import java.util.concurrent.CompletableFuture;

/** {@code triple.benchmark.UserService} as a Triple interface. */
@TripleService(name = "triple.benchmark.UserService")
public interface UserService {

  ExistUserResponse existUser(ExistUserRequest request);

  CreateUserResponse createUser(User user);

  User getUser(GetUserRequest request);

  Page listUser(ListUserRequest request);

  Page listUserLarge(ListUserRequest request);

  void streamUsers(StreamUsersRequest request, StreamObserver<User> users);

  /** The same service, called without blocking. */
  @TripleService(name = "triple.benchmark.UserService")
  interface Async {
    @io.triplerpc.TripleMethod(name = "getUser")
    CompletableFuture<User> getUserAsync(GetUserRequest request);
  }
}
