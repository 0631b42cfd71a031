package io.triplerpc;

import java.net.SocketAddress;

/** A {@link ServerCall} that passes everything to another; override what you want to see. */
public class ForwardingServerCall<Q, R> extends ServerCall<Q, R> {

  private final ServerCall<Q, R> delegate;

  public ForwardingServerCall(ServerCall<Q, R> delegate) {
    this.delegate = delegate;
  }

  protected final ServerCall<Q, R> delegate() {
    return delegate;
  }

  @Override
  public void request(int count) {
    delegate.request(count);
  }

  @Override
  public void sendHeaders(Metadata headers) {
    delegate.sendHeaders(headers);
  }

  @Override
  public void sendMessage(R message) {
    delegate.sendMessage(message);
  }

  @Override
  public void close(Status status, Metadata trailers) {
    delegate.close(status, trailers);
  }

  @Override
  public boolean isCancelled() {
    return delegate.isCancelled();
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }

  @Override
  public void setMessageCompression(boolean enabled) {
    delegate.setMessageCompression(enabled);
  }

  @Override
  public void setCompression(String encoding) {
    delegate.setCompression(encoding);
  }

  @Override
  public MethodDescriptor<Q, R> method() {
    return delegate.method();
  }

  @Override
  public SocketAddress remoteAddress() {
    return delegate.remoteAddress();
  }

  @Override
  public String protocol() {
    return delegate.protocol();
  }
}
