package io.triplerpc.internal.reflection;

import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.internal.reflection.v1.ErrorResponse;
import io.triplerpc.internal.reflection.v1.ExtensionNumberResponse;
import io.triplerpc.internal.reflection.v1.ExtensionRequest;
import io.triplerpc.internal.reflection.v1.FileDescriptorResponse;
import io.triplerpc.internal.reflection.v1.ListServiceResponse;
import io.triplerpc.internal.reflection.v1.ServerReflectionRequest;
import io.triplerpc.internal.reflection.v1.ServerReflectionResponse;
import io.triplerpc.internal.reflection.v1.ServiceResponse;
import java.util.List;
import java.util.function.Supplier;

/**
 * Server reflection, v1 and v1alpha (the same messages in two packages: v1alpha requests are read as
 * v1 and the answers written back as v1alpha). Each request gets one response on the same stream;
 * what is not known gets an error response (NOT_FOUND), not an error status, as the protocol says.
 */
public final class ReflectionServiceImpl implements ReflectionV1Service {

  private final Supplier<DescriptorIndex> index;

  /** {@code index} is asked once, on the first request: a server that nobody reflects on pays nothing. */
  public ReflectionServiceImpl(Supplier<DescriptorIndex> index) {
    this.index = memoize(index);
  }

  private static <T> Supplier<T> memoize(Supplier<T> supplier) {
    return new Supplier<>() {
      private volatile T value;

      @Override
      public T get() {
        T v = value;
        if (v == null) {
          synchronized (this) {
            v = value;
            if (v == null) {
              v = supplier.get();
              value = v;
            }
          }
        }
        return v;
      }
    };
  }

  @Override
  public StreamObserver<ServerReflectionRequest> serverReflectionInfo(
      StreamObserver<ServerReflectionResponse> responses) {
    return new StreamObserver<>() {
      @Override
      public void onNext(ServerReflectionRequest request) {
        responses.onNext(answer(request));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        responses.onCompleted();
      }
    };
  }

  /** The same service as v1alpha. */
  public ReflectionV1AlphaService v1alpha() {
    return responses -> new StreamObserver<>() {
      @Override
      public void onNext(io.triplerpc.internal.reflection.v1alpha.ServerReflectionRequest request) {
        try {
          ServerReflectionResponse answer = answer(ServerReflectionRequest.parseFrom(request.toByteString()));
          responses.onNext(io.triplerpc.internal.reflection.v1alpha.ServerReflectionResponse.parseFrom(
              answer.toByteString()));
        } catch (InvalidProtocolBufferException e) {
          // The two versions share their wire format; this cannot happen unless they diverge.
          responses.onError(Status.INTERNAL.withDescription("Reflection v1alpha conversion: " + e).asException());
        }
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        responses.onCompleted();
      }
    };
  }

  ServerReflectionResponse answer(ServerReflectionRequest request) {
    ServerReflectionResponse.Builder response = ServerReflectionResponse.newBuilder()
        .setValidHost(request.getHost())
        .setOriginalRequest(request);
    DescriptorIndex descriptors = index.get();
    switch (request.getMessageRequestCase()) {
      case LIST_SERVICES: {
        ListServiceResponse.Builder list = ListServiceResponse.newBuilder();
        descriptors.serviceNames().forEach(name -> list.addService(ServiceResponse.newBuilder().setName(name)));
        return response.setListServicesResponse(list).build();
      }
      case FILE_BY_FILENAME:
        return files(response, descriptors.fileByName(request.getFileByFilename()),
            "file " + request.getFileByFilename());
      case FILE_CONTAINING_SYMBOL:
        return files(response, descriptors.fileContainingSymbol(request.getFileContainingSymbol()),
            "symbol " + request.getFileContainingSymbol());
      case FILE_CONTAINING_EXTENSION: {
        ExtensionRequest extension = request.getFileContainingExtension();
        return files(response,
            descriptors.fileContainingExtension(extension.getContainingType(), extension.getExtensionNumber()),
            "extension " + extension.getExtensionNumber() + " of " + extension.getContainingType());
      }
      case ALL_EXTENSION_NUMBERS_OF_TYPE: {
        String type = request.getAllExtensionNumbersOfType();
        List<Integer> numbers = descriptors.extensionNumbers(type);
        if (numbers == null) {
          return error(response, Status.Code.NOT_FOUND, "Type not found: " + type);
        }
        return response.setAllExtensionNumbersResponse(ExtensionNumberResponse.newBuilder()
            .setBaseTypeName(type)
            .addAllExtensionNumber(numbers)).build();
      }
      default:
        return error(response, Status.Code.UNIMPLEMENTED, "Request has no message_request");
    }
  }

  private static ServerReflectionResponse files(
      ServerReflectionResponse.Builder response, FileDescriptor file, String what) {
    if (file == null) {
      return error(response, Status.Code.NOT_FOUND, "Not found: " + what);
    }
    FileDescriptorResponse.Builder files = FileDescriptorResponse.newBuilder();
    for (FileDescriptor f : DescriptorIndex.withDependencies(file)) {
      files.addFileDescriptorProto(f.toProto().toByteString());
    }
    return response.setFileDescriptorResponse(files).build();
  }

  private static ServerReflectionResponse error(
      ServerReflectionResponse.Builder response, Status.Code code, String message) {
    return response.setErrorResponse(ErrorResponse.newBuilder()
        .setErrorCode(code.value())
        .setErrorMessage(message)).build();
  }
}
