package io.triplerpc.interop.dubbo.peer;

import io.triplerpc.interop.dubbo.api.ProtoService;
import io.triplerpc.interop.dubbo.proto.EchoReply;
import io.triplerpc.interop.dubbo.proto.EchoRequest;
import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.common.stream.StreamObserver;
import org.apache.dubbo.rpc.TriRpcStatus;

/** {@link ProtoService} as a Dubbo application implements it; errors with Dubbo's {@link TriRpcStatus}. */
final class DubboProtoService implements ProtoService {

  @Override
  public EchoReply unary(EchoRequest request) {
    if (request.getText().equals("invalid")) {
      throw TriRpcStatus.fromCode(TriRpcStatus.Code.INVALID_ARGUMENT).withDescription("invalid text").asException();
    }
    if (request.getText().equals("crash")) {
      throw new IllegalStateException("crash");
    }
    return EchoReply.newBuilder().setText("unary:" + request.getText()).build();
  }

  @Override
  public void serverStream(EchoRequest request, StreamObserver<EchoReply> out) {
    for (int i = 1; i <= request.getCount(); i++) {
      out.onNext(EchoReply.newBuilder().setText(request.getText() + "#" + i).setIndex(i).build());
    }
    out.onCompleted();
  }

  @Override
  public StreamObserver<EchoRequest> clientStream(StreamObserver<EchoReply> out) {
    return new StreamObserver<>() {
      private final List<String> texts = new ArrayList<>();

      @Override
      public void onNext(EchoRequest request) {
        texts.add(request.getText());
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        out.onNext(EchoReply.newBuilder().setText(String.join("+", texts)).setIndex(texts.size()).build());
        out.onCompleted();
      }
    };
  }

  @Override
  public StreamObserver<EchoRequest> bidi(StreamObserver<EchoReply> out) {
    return new StreamObserver<>() {
      private int index;

      @Override
      public void onNext(EchoRequest request) {
        out.onNext(EchoReply.newBuilder().setText("echo:" + request.getText()).setIndex(++index).build());
      }

      @Override
      public void onError(Throwable t) {
        out.onError(t);
      }

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
  }
}
