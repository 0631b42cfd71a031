package io.triplerpc.benchmark.dubbo;

import io.triplerpc.benchmark.workload.proto.CreateUserResponse;
import io.triplerpc.benchmark.workload.proto.ExistUserRequest;
import io.triplerpc.benchmark.workload.proto.ExistUserResponse;
import io.triplerpc.benchmark.workload.proto.GetUserRequest;
import io.triplerpc.benchmark.workload.proto.ListUserRequest;
import io.triplerpc.benchmark.workload.proto.Page;
import io.triplerpc.benchmark.workload.proto.Payload;
import io.triplerpc.benchmark.workload.proto.StreamUsersRequest;
import io.triplerpc.benchmark.workload.proto.User;
import org.apache.dubbo.common.stream.StreamObserver;

/**
 * The workload as a Dubbo triple interface: protobuf messages in and out, so Dubbo carries them as
 * plain protobuf, as gRPC does. Served at {@code /io.triplerpc.benchmark.dubbo.DubboUserService/<method>}.
 *
 * <p>No {@code getUserAsync} here: Dubbo 3.3 sends a method under its Java name (a
 * {@code CompletableFuture<User> getUserAsync} would be a second remote method, not {@code getUser}),
 * so the benchmark calls {@code getUser} itself without blocking, through
 * {@code RpcContext.getServiceContext().asyncCall}.
 */
public interface DubboUserService {

  ExistUserResponse existUser(ExistUserRequest request);

  CreateUserResponse createUser(User user);

  User getUser(GetUserRequest request);

  Page listUser(ListUserRequest request);

  Page listUserLarge(ListUserRequest request);

  /** The sweeps' call: answers with the request. */
  Payload echo(Payload request);

  /** Server streaming, in Dubbo's shape: request and response observer, no result. */
  void streamUsers(StreamUsersRequest request, StreamObserver<User> users);
}
