package io.triplerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Empty;
import com.google.protobuf.StringValue;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.Serializations;
import org.junit.jupiter.api.Test;

class MethodDescriptorTest {

  private static final MessageCodec<StringValue> REQUEST = Serializations.codecFor(StringValue.class);
  private static final MessageCodec<Empty> RESPONSE = Serializations.codecFor(Empty.class);

  @Test
  void namesAndThePathAreBuiltFromServiceAndMethod() {
    MethodDescriptor<StringValue, Empty> method =
        MethodDescriptor.of("grpc.testing.TestService", "UnaryCall", MethodType.UNARY, REQUEST, RESPONSE, true);
    assertEquals("grpc.testing.TestService", method.serviceName());
    assertEquals("UnaryCall", method.methodName());
    assertEquals("grpc.testing.TestService/UnaryCall", method.fullMethodName());
    assertEquals("/grpc.testing.TestService/UnaryCall", method.path().toString());
    assertSame(method.path(), method.path(), "the path is computed once");
    assertSame(MethodType.UNARY, method.type());
    assertSame(REQUEST, method.requestCodec());
    assertSame(RESPONSE, method.responseCodec());
    assertTrue(method.isIdempotent());
    assertEquals("grpc.testing.TestService/UnaryCall (UNARY)", method.toString());
  }

  @Test
  void everyPartIsRequired() {
    assertThrows(NullPointerException.class,
        () -> MethodDescriptor.of(null, "m", MethodType.UNARY, REQUEST, RESPONSE, false));
    assertThrows(NullPointerException.class,
        () -> MethodDescriptor.of("s", null, MethodType.UNARY, REQUEST, RESPONSE, false));
    assertThrows(NullPointerException.class, () -> MethodDescriptor.of("s", "m", null, REQUEST, RESPONSE, false));
    assertThrows(NullPointerException.class,
        () -> MethodDescriptor.of("s", "m", MethodType.UNARY, null, RESPONSE, false));
    assertThrows(NullPointerException.class,
        () -> MethodDescriptor.of("s", "m", MethodType.UNARY, REQUEST, null, false));
  }

  @Test
  void methodTypesSayWhichSideSendsOneMessage() {
    assertTrue(MethodType.UNARY.clientSendsOneMessage());
    assertTrue(MethodType.UNARY.serverSendsOneMessage());
    assertFalse(MethodType.CLIENT_STREAMING.clientSendsOneMessage());
    assertTrue(MethodType.CLIENT_STREAMING.serverSendsOneMessage());
    assertTrue(MethodType.SERVER_STREAMING.clientSendsOneMessage());
    assertFalse(MethodType.SERVER_STREAMING.serverSendsOneMessage());
    assertFalse(MethodType.BIDI_STREAMING.clientSendsOneMessage());
    assertFalse(MethodType.BIDI_STREAMING.serverSendsOneMessage());
  }
}
