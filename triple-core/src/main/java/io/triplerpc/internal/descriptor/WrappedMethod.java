package io.triplerpc.internal.descriptor;

import io.triplerpc.StatusException;
import io.triplerpc.internal.wire.MessageCodecs;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.wrapper.WrapperCodecs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A method whose parameters or result are plain Java types: its values travel in the wrapper
 * messages of Apache Dubbo 3 Triple ({@link WrapperCodecs}), serialized with hessian2 or JSON.
 *
 * <p>Unary calls carry the whole argument list in one request and, in the response, either the result
 * or an exception the method declares; which one is said by the {@value WrapperCodecs#EXCEPTION_CODE_HEADER}
 * response header, so the client keeps the response undecoded ({@link RawResponse}) until it has seen
 * the headers, then {@link #decode decodes} it on the calling thread. Streaming calls carry one value per
 * message, as Dubbo does.
 */
public final class WrappedMethod {

  private final WrapperCodecs codecs;
  private final MessageCodec<Object> requestCodec;
  private final MessageCodec<Object> responseCodec;
  private final boolean unary;

  private WrappedMethod(WrapperCodecs codecs, MessageCodec<Object> requestCodec,
      MessageCodec<Object> responseCodec, boolean unary) {
    this.codecs = codecs;
    this.requestCodec = requestCodec;
    this.responseCodec = responseCodec;
    this.unary = unary;
  }

  /** A unary method: the request is its argument array, the response a {@link RawResponse} once read. */
  @SuppressWarnings("unchecked")
  static WrappedMethod unary(
      Class<?> service, Method method, ObjectSerialization serialization, AllowedClasses allowed) {
    WrapperCodecs codecs = WrapperCodecs.forMethod(service, method, serialization, allowed);
    MessageCodec<?> arguments = codecs.arguments();
    return new WrappedMethod(codecs, (MessageCodec<Object>) arguments, new UnaryResponseCodec(codecs), true);
  }

  /** A streaming method: each request message holds one {@code requestType} value, each response one result. */
  static WrappedMethod streaming(Class<?> service, Method method, ObjectSerialization serialization,
      Type requestType, Type responseType, AllowedClasses allowed) {
    String where = service.getName() + "." + method.getName();
    ClassLoader loader = service.getClassLoader();
    MessageCodec<Object[]> one =
        WrapperCodecs.requestCodec(where, serialization, loader, List.of(requestType), allowed);
    return new WrappedMethod(WrapperCodecs.forMethod(service, method, serialization, allowed),
        new OneArgument(one), WrapperCodecs.responseCodec(where, serialization, loader, responseType, allowed),
        false);
  }

  MessageCodec<Object> requestCodec() {
    return requestCodec;
  }

  MessageCodec<Object> responseCodec() {
    return responseCodec;
  }

  /** Whether requests are whole argument arrays (unary) rather than single values (streaming). */
  public boolean isUnary() {
    return unary;
  }

  /**
   * Whether {@code thrown}, thrown by the service, travels to the caller as itself (as a response):
   * every exception, checked or runtime, except a {@link StatusException}, which asks for its status,
   * and errors. Dubbo 3.3 sends the exceptions a method declares so; its clients read any.
   */
  public boolean travels(Throwable thrown) {
    return thrown instanceof Exception && !(thrown instanceof StatusException);
  }

  /** What the server sends for an exception the method declares, with the exception-code header. */
  public static Object thrown(Throwable exception) {
    return new Thrown(exception);
  }

  /** The exception-code header of such a response, and its value. */
  public static final String EXCEPTION_CODE_HEADER = WrapperCodecs.EXCEPTION_CODE_HEADER;

  public static final String EXCEPTION_CODE = Integer.toString(WrapperCodecs.BUSINESS_EXCEPTION_CODE);

  /**
   * The result of a unary call from its undecoded response: the value, or the exception the service
   * threw, thrown here.
   *
   * @throws StatusException INTERNAL if the response does not decode, naming the class if it holds one
   *     the service may not instantiate
   */
  public Object decode(Object response) throws Throwable {
    RawResponse raw = (RawResponse) response;
    Throwable thrown;
    try {
      if (!raw.exception) {
        return codecs.result().read(ByteBuffer.wrap(raw.bytes));
      }
      thrown = codecs.exception().read(ByteBuffer.wrap(raw.bytes));
    } catch (IOException e) {
      throw MessageCodecs.decodeFailure(e, "response", codecs);
    }
    throw thrown;
  }

  /** A unary response as read, not yet decoded. */
  public static final class RawResponse {
    final byte[] bytes;
    boolean exception;

    RawResponse(byte[] bytes) {
      this.bytes = bytes;
    }

    /** Marks it as an exception the service threw, as the response headers said. */
    public void markException() {
      exception = true;
    }
  }

  private record Thrown(Throwable exception) {}

  /** Writes results and thrown exceptions; reads the bytes, for the client to decode once it saw the headers. */
  private static final class UnaryResponseCodec implements MessageCodec<Object> {
    private final WrapperCodecs codecs;
    /** Whether bodies are JSON (Connect unary, curl) rather than the wrapper. */
    private final boolean json;

    UnaryResponseCodec(WrapperCodecs codecs) {
      this(codecs, false);
    }

    private UnaryResponseCodec(WrapperCodecs codecs, boolean json) {
      this.codecs = codecs;
      this.json = json;
    }

    @Override
    public String subtype() {
      return json ? "json" : WrapperCodecs.SUBTYPE;
    }

    /**
     * For {@code "json"}: the result, or a thrown exception (with the exception-code header, as over the
     * wrapper), as a JSON body.
     */
    @Override
    public MessageCodec<Object> withSubtype(String subtype) {
      if (subtype.equals(subtype())) {
        return this;
      }
      return "json".equals(subtype) ? new UnaryResponseCodec(codecs, true) : null;
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      if (value instanceof Thrown) {
        (json ? codecs.jsonException() : codecs.exception()).write(((Thrown) value).exception(), out);
      } else {
        (json ? codecs.jsonResult() : codecs.result()).write(value, out);
      }
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return new RawResponse(in.readAllBytes());
    }

    @Override
    public Object read(ByteBuffer source) {
      byte[] bytes = new byte[source.remaining()];
      source.get(bytes);
      return new RawResponse(bytes);
    }

    @Override
    public String toString() {
      return codecs.toString();
    }
  }

  /** One value as a one-argument request wrapper. */
  private static final class OneArgument implements MessageCodec<Object> {
    private final MessageCodec<Object[]> arguments;

    OneArgument(MessageCodec<Object[]> arguments) {
      this.arguments = arguments;
    }

    @Override
    public String subtype() {
      return arguments.subtype();
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      arguments.write(new Object[] {value}, out);
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return arguments.read(in)[0];
    }

    @Override
    public Object read(ByteBuffer source) throws IOException {
      return arguments.read(source)[0];
    }

    @Override
    public String toString() {
      return arguments.toString();
    }
  }
}
