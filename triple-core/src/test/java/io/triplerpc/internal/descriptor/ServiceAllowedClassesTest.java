package io.triplerpc.internal.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
import io.triplerpc.serialization.MessageCodec;
import io.triplerpc.serialization.object.ClassNotAllowedException;
import io.triplerpc.serialization.object.DeserializationAllowList;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A service's allowed classes are one set for the whole service, reached from every method's signature,
 * stream element types and future results included, plus its allow list.
 */
class ServiceAllowedClassesTest {

  /** Only a stream element type names it. */
  public static class Event {
    public String topic;
  }

  /** Only a future's result type names it. */
  public static class Receipt {
    public long id;
  }

  /** Only a client stream's element type names it. */
  public static class Upload {
    public byte[] bytes;
  }

  /** Declared exception. */
  public static class Refused extends Exception {
    private static final long serialVersionUID = 1L;
  }

  /** No signature names it. */
  public static class Stranger {
    public String name;
  }

  @TripleService(name = "test.Streams")
  interface Streams {
    void watch(String topic, StreamObserver<Event> events);

    CompletableFuture<Receipt> later(String id);

    @TripleMethod(clientStreaming = true)
    StreamObserver<Upload> upload(StreamObserver<Receipt> receipts);

    String echo(Object anything) throws Refused;
  }

  @Test
  void everyMethodMayReceiveWhatAnyMethodOfTheServiceReaches() throws Exception {
    MessageCodec<Object> echo = echo(ServiceDescriptor.of(Streams.class));
    for (Object value : new Object[] {new Event(), new Receipt(), new Upload(), new Refused()}) {
      // A server reads the arguments with the serialization they came in.
      Object[] read = (Object[]) WrappedMethod.valueOf(roundTrip(echo, value));
      assertEquals(value.getClass(), read[0].getClass());
    }
  }

  @Test
  void aClassNoSignatureReachesIsRefusedUnlessTheAllowListNamesIt() throws Exception {
    IOException refused = assertThrows(IOException.class,
        () -> roundTrip(echo(ServiceDescriptor.of(Streams.class)), new Stranger()));
    ClassNotAllowedException cause = assertInstanceOf(ClassNotAllowedException.class, refused);
    assertEquals(Stranger.class.getName(), cause.className());

    DeserializationAllowList list = DeserializationAllowList.of(Stranger.class.getName());
    Object[] read = (Object[]) WrappedMethod.valueOf(roundTrip(echo(ServiceDescriptor.of(Streams.class, list)), new Stranger()));
    assertInstanceOf(Stranger.class, read[0]);
  }

  @Test
  void descriptorsAreSharedPerInterfaceAndAllowList() {
    DeserializationAllowList list = DeserializationAllowList.create();
    assertSame(ServiceDescriptor.of(Streams.class, list), ServiceDescriptor.of(Streams.class, list));
    assertNotSame(ServiceDescriptor.of(Streams.class), ServiceDescriptor.of(Streams.class, list));
  }

  @SuppressWarnings("unchecked")
  private static MessageCodec<Object> echo(ServiceDescriptor service) throws NoSuchMethodException {
    return (MessageCodec<Object>) service.binding(Streams.class.getMethod("echo", Object.class))
        .descriptor().requestCodec();
  }

  private static Object roundTrip(MessageCodec<Object> codec, Object argument) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.write(new Object[] {argument}, out);
    return codec.read(ByteBuffer.wrap(out.toByteArray()));
  }
}
