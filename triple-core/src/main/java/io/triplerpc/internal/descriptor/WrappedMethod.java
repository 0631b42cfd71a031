package io.triplerpc.internal.descriptor;

import io.triplerpc.StatusException;
import io.triplerpc.internal.wire.MessageCodecs;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.AllowedClasses;
import io.triplerpc.serialization.object.ObjectSerialization;
import io.triplerpc.serialization.wrapper.InSerialization;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import io.triplerpc.serialization.wrapper.WrapperCodec;
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
 * messages of Apache Dubbo 3 Triple ({@link WrapperCodecs}), serialized with hessian2, fastjson2 or
 * jackson.
 *
 * <p>A client writes the method's own serialization (the service's {@code @TripleService(serialization)}).
 * A server reads whichever serialization a request's wrapper names and answers in it, as Dubbo's servers
 * do: its request codec reads each message as an {@link InSerialization}, and what it sends back is a
 * {@link #reply} or {@link #thrown} that names the serialization to write. Those are the messages a
 * server interceptor sees for such a method; a bare value sent in their place is written in the method's
 * own serialization.
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

  /**
   * A unary method: the request is its argument array (read as an {@link InSerialization} of it), the
   * response a {@link RawResponse} once read.
   */
  static WrappedMethod unary(
      Class<?> service, Method method, ObjectSerialization serialization, AllowedClasses allowed) {
    WrapperCodecs codecs = WrapperCodecs.forMethod(service, method, serialization, allowed);
    return new WrappedMethod(codecs, new Arguments(codecs.arguments(), false), new UnaryResponseCodec(codecs), true);
  }

  /**
   * A streaming method: each request message holds one {@code requestType} value (read as an
   * {@link InSerialization} of it), each response one result.
   */
  static WrappedMethod streaming(Class<?> service, Method method, ObjectSerialization serialization,
      Type requestType, Type responseType, AllowedClasses allowed) {
    String where = service.getName() + "." + method.getName();
    ClassLoader loader = service.getClassLoader();
    WrapperCodec<Object[]> one =
        WrapperCodecs.requestCodec(where, serialization, loader, List.of(requestType), allowed);
    return new WrappedMethod(WrapperCodecs.forMethod(service, method, serialization, allowed),
        new Arguments(one, true),
        new StreamResponses(WrapperCodecs.responseCodec(where, serialization, loader, responseType, allowed)),
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

  /**
   * What the server sends for {@code value}, a result of the method, to a caller that wrote in
   * {@code serialization} (null for the method's own).
   */
  public static Object reply(Object value, ObjectSerialization serialization) {
    return new Reply(value, false, serialization, null);
  }

  /**
   * What the server sends for an exception the service threw, with the exception-code header, to a caller
   * that wrote in {@code serialization} (null for the method's own).
   */
  public static Object thrown(Throwable exception, ObjectSerialization serialization) {
    return new Reply(exception, true, serialization, null);
  }

  /**
   * What the server sends for {@code value}, a result of this method, as {@link #reply} does; the
   * response codec of an {@link OverloadSet} writes it as this overload's.
   */
  public Object answer(Object value, ObjectSerialization serialization) {
    return new Reply(value, false, serialization, this);
  }

  /** What the server sends for an exception this method threw, as {@link #thrown} does, as this overload's. */
  public Object answerThrown(Throwable exception, ObjectSerialization serialization) {
    return new Reply(exception, true, serialization, this);
  }

  /** The wrapper codecs of a unary method. */
  WrapperCodecs codecs() {
    return codecs;
  }

  /**
   * The responses of an {@link OverloadSet} of these methods: each {@link #answer} or {@link #answerThrown}
   * written by the codec of the overload that made it.
   */
  static MessageCodec<Object> overloadedResponses(List<WrappedMethod> overloads) {
    WrappedMethod[] methods = overloads.toArray(new WrappedMethod[0]);
    @SuppressWarnings("unchecked")
    MessageCodec<Object>[] codecs = new MessageCodec[methods.length];
    for (int i = 0; i < methods.length; i++) {
      codecs[i] = methods[i].responseCodec;
    }
    return new OverloadedResponses(methods, codecs);
  }

  /**
   * The value of a request message as the service method takes it, and the serialization it came in
   * (null when it came as JSON, or from a protobuf method); see {@link InSerialization}.
   */
  public static Object valueOf(Object request) {
    return request instanceof InSerialization<?> ? ((InSerialization<?>) request).value() : request;
  }

  /** The serialization a request message came in, or null if it names none (JSON, protobuf). */
  public static ObjectSerialization serializationOf(Object request) {
    return request instanceof InSerialization<?> ? ((InSerialization<?>) request).serialization() : null;
  }

  /**
   * The serializations a server reads the requests of the method whose request codec is {@code requestCodec},
   * its own first, comma-separated as a registry advertises them ({@code "hessian2,fastjson2,jackson"});
   * null if the method is not a plain Java one.
   */
  public static String servedSerializations(MessageCodec<?> requestCodec) {
    WrapperCodec<?> requests = requestsOf(requestCodec);
    List<ObjectSerialization> served = requests != null ? requests.serializations()
        : requestCodec instanceof OverloadedArguments overloaded ? overloaded.serializations() : null;
    if (served == null) {
      return null;
    }
    StringBuilder names = new StringBuilder();
    for (ObjectSerialization serialization : served) {
      names.append(names.length() == 0 ? "" : ",").append(serialization.name());
    }
    return names.toString();
  }

  /**
   * The serialization a client writes requests in, through {@code requestCodec}, to a server that reads
   * {@code preferred} (comma-separated, most preferred first): null, for the method's own, when the server
   * reads it, nothing is preferred, or the method is not a plain Java one; else the first preferred one the
   * method can write, or null if there is none.
   */
  public static ObjectSerialization requestSerializationFor(MessageCodec<?> requestCodec, String preferred) {
    WrapperCodec<?> requests = preferred == null ? null : requestsOf(requestCodec);
    if (requests == null) {
      return null;
    }
    List<ObjectSerialization> writable = requests.serializations();
    if (listed(preferred, writable.get(0).name())) {
      return null;
    }
    for (String name : preferred.split(",")) {
      for (ObjectSerialization serialization : writable) {
        if (serialization.name().equals(name.trim())) {
          return serialization;
        }
      }
    }
    return null;
  }

  /** Whether the comma-separated {@code names} holds {@code name}, without splitting them. */
  private static boolean listed(String names, String name) {
    for (int at = names.indexOf(name); at >= 0; at = names.indexOf(name, at + 1)) {
      int end = at + name.length();
      boolean startsItem = at == 0 || names.charAt(at - 1) == ',' || names.charAt(at - 1) == ' ';
      boolean endsItem = end == names.length() || names.charAt(end) == ',' || names.charAt(end) == ' ';
      if (startsItem && endsItem) {
        return true;
      }
    }
    return false;
  }

  /** A client's message that {@link #requestSerializationFor} says to write in {@code serialization}. */
  public static Object inSerialization(Object message, ObjectSerialization serialization) {
    return new InSerialization<>(message, serialization);
  }

  private static WrapperCodec<?> requestsOf(MessageCodec<?> requestCodec) {
    return requestCodec instanceof Arguments arguments ? arguments.arguments : null;
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

  /**
   * The subtype ({@code withSubtype}) of a plain Java method's result as JSON with no {@code "@class"}
   * property, for REST answers; other codecs have no such form and answer null.
   */
  public static final String PLAIN_JSON = "json;plain";

  /**
   * A result or a thrown exception, the serialization to write it in (null for the method's own), and the
   * method that made it (null when said by the static {@link #reply} and {@link #thrown}).
   */
  private record Reply(Object value, boolean thrown, ObjectSerialization serialization, WrappedMethod origin) {}

  /** Writes {@code value} with {@code codec}, in the serialization a {@link Reply} names, if it names one. */
  @SuppressWarnings("unchecked")
  private static <T> void writeIn(WrapperCodec<T> codec, Object value, ObjectSerialization serialization,
      OutputStream out) throws IOException {
    if (serialization == null) {
      codec.write((T) value, out);
    } else {
      codec.write((T) value, serialization, out);
    }
  }

  /**
   * Writes results and thrown exceptions, each in the serialization its {@link Reply} names; reads the bytes,
   * for the client to decode once it saw the headers.
   */
  private static final class UnaryResponseCodec implements MessageCodec<Object> {
    private final WrapperCodecs codecs;
    /** Whether bodies are JSON (Connect unary, curl) rather than the wrapper. */
    private final boolean json;
    /** Whether JSON results carry no {@code "@class"} (REST answers). */
    private final boolean plain;

    UnaryResponseCodec(WrapperCodecs codecs) {
      this(codecs, false, false);
    }

    private UnaryResponseCodec(WrapperCodecs codecs, boolean json, boolean plain) {
      this.codecs = codecs;
      this.json = json;
      this.plain = plain;
    }

    @Override
    public String subtype() {
      return json ? "json" : WrapperCodecs.SUBTYPE;
    }

    /**
     * For {@code "json"}: the result, or a thrown exception (with the exception-code header, as over the
     * wrapper), as a JSON body; for {@link #PLAIN_JSON}, the same with no {@code "@class"} in a result.
     */
    @Override
    public MessageCodec<Object> withSubtype(String subtype) {
      if (PLAIN_JSON.equals(subtype)) {
        return plain ? this : new UnaryResponseCodec(codecs, true, true);
      }
      if (subtype.equals(subtype()) && !plain) {
        return this;
      }
      return "json".equals(subtype) ? new UnaryResponseCodec(codecs, true, false) : null;
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      Reply reply = value instanceof Reply ? (Reply) value : new Reply(value, false, null, null);
      if (json) {
        // JSON bodies are jackson's whatever the method's serialization.
        if (reply.thrown()) {
          codecs.jsonException().write((Throwable) reply.value(), out);
        } else {
          (plain ? codecs.plainJsonResult() : codecs.jsonResult()).write(reply.value(), out);
        }
      } else if (reply.thrown()) {
        writeIn(codecs.exception(), reply.value(), reply.serialization(), out);
      } else {
        writeIn(codecs.result(), reply.value(), reply.serialization(), out);
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

  /**
   * The responses of overloads: each {@link Reply} written by the codec of the overload that made it, which
   * the server call's listener chose by the request.
   */
  private static final class OverloadedResponses implements MessageCodec<Object> {
    private final WrappedMethod[] overloads;
    /** The response codec of each overload, in this codec's subtype. */
    private final MessageCodec<Object>[] codecs;

    OverloadedResponses(WrappedMethod[] overloads, MessageCodec<Object>[] codecs) {
      this.overloads = overloads;
      this.codecs = codecs;
    }

    @Override
    public String subtype() {
      return codecs[0].subtype();
    }

    @Override
    public MessageCodec<Object> withSubtype(String subtype) {
      if (subtype.equals(WrapperCodecs.SUBTYPE) && subtype.equals(subtype())) {
        return this;
      }
      @SuppressWarnings("unchecked")
      MessageCodec<Object>[] forms = new MessageCodec[codecs.length];
      for (int i = 0; i < forms.length; i++) {
        forms[i] = overloads[i].responseCodec.withSubtype(subtype);
        if (forms[i] == null) {
          return null;
        }
      }
      return new OverloadedResponses(overloads, forms);
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      WrappedMethod origin = value instanceof Reply reply ? reply.origin() : null;
      for (int i = 0; i < overloads.length; i++) {
        if (overloads[i] == origin) {
          codecs[i].write(value, out);
          return;
        }
      }
      // A value no overload answered (an interceptor's own): which result type it is cannot be known.
      throw new IllegalArgumentException("A response of an overloaded method must be an overload's answer(...),"
          + " not " + (value == null ? "null" : value.getClass().getName()));
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return codecs[0].read(in);
    }

    @Override
    public Object read(ByteBuffer source) throws IOException {
      return codecs[0].read(source);
    }

    @Override
    public String toString() {
      return "OverloadedResponses" + java.util.Arrays.toString(codecs);
    }
  }

  /**
   * A request wrapper's arguments: written from the argument array of a unary method (or one value, as a
   * one-argument wrapper, for a streaming method's messages) or an {@link InSerialization} of it, read (by
   * a server) as an {@link InSerialization}; a unary method's as JSON (Connect unary, curl), the argument
   * array alone.
   */
  private static final class Arguments implements MessageCodec<Object> {
    private final WrapperCodec<Object[]> arguments;
    /** Whether a message is one value rather than the argument array. */
    private final boolean oneValue;

    Arguments(WrapperCodec<Object[]> arguments, boolean oneValue) {
      this.arguments = arguments;
      this.oneValue = oneValue;
    }

    @Override
    public String subtype() {
      return arguments.subtype();
    }

    @Override
    @SuppressWarnings("unchecked")
    public MessageCodec<Object> withSubtype(String subtype) {
      if (subtype.equals(subtype())) {
        return this;
      }
      // JSON carries a unary method's argument array; a streaming method's messages have no other form.
      return oneValue ? null : (MessageCodec<Object>) (MessageCodec<?>) arguments.withSubtype(subtype);
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      if (value instanceof InSerialization<?>) {
        InSerialization<?> in = (InSerialization<?>) value;
        arguments.write(array(in.value()), in.serialization(), out);
      } else {
        arguments.write(array(value), out);
      }
    }

    private Object[] array(Object value) {
      return oneValue ? new Object[] {value} : (Object[]) value;
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return message(arguments.readInSerialization(in));
    }

    @Override
    public Object read(ByteBuffer source) throws IOException {
      return message(arguments.readInSerialization(source));
    }

    private Object message(InSerialization<Object[]> read) {
      return oneValue ? new InSerialization<>(read.value()[0], read.serialization()) : read;
    }

    @Override
    public String toString() {
      return arguments.toString();
    }
  }

  /**
   * A streaming method's responses: each written in the serialization its {@link Reply} names (the caller's),
   * read (by a client) as the value.
   */
  private static final class StreamResponses implements MessageCodec<Object> {
    private final WrapperCodec<Object> responses;

    StreamResponses(WrapperCodec<Object> responses) {
      this.responses = responses;
    }

    @Override
    public String subtype() {
      return responses.subtype();
    }

    @Override
    public int serializedSize(Object value) {
      return -1;
    }

    @Override
    public void write(Object value, OutputStream out) throws IOException {
      if (value instanceof Reply) {
        Reply reply = (Reply) value;
        writeIn(responses, reply.value(), reply.serialization(), out);
      } else {
        responses.write(value, out);
      }
    }

    @Override
    public Object read(InputStream in) throws IOException {
      return responses.read(in);
    }

    @Override
    public Object read(ByteBuffer source) throws IOException {
      return responses.read(source);
    }

    @Override
    public String toString() {
      return responses.toString();
    }
  }
}
