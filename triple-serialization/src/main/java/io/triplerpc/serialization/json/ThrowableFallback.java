package io.triplerpc.serialization.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import io.triplerpc.serialization.object.RemoteServiceException;
import java.io.IOException;

/**
 * Reads an exception Jackson cannot construct (its class has neither a no-argument nor a single-
 * {@code String} constructor, like {@code UncheckedIOException}) as a {@link RemoteServiceException} that
 * keeps its class name, message, stack trace, cause and suppressed exceptions, rather than failing the
 * whole response over one link of a cause chain.
 */
final class ThrowableFallback extends BeanDeserializerModifier {

  private static final long serialVersionUID = 1L;

  @Override
  public JsonDeserializer<?> modifyDeserializer(
      DeserializationConfig config, BeanDescription description, JsonDeserializer<?> deserializer) {
    Class<?> type = description.getBeanClass();
    return Throwable.class.isAssignableFrom(type) ? new Deserializer(deserializer, type) : deserializer;
  }

  private static final class Deserializer extends DelegatingDeserializer {
    private static final long serialVersionUID = 1L;

    private final Class<?> type;

    Deserializer(JsonDeserializer<?> delegate, Class<?> type) {
      super(delegate);
      this.type = type;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new Deserializer(delegate, type);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      TokenBuffer object = bufferObject(p, ctxt);
      try {
        Object value = _delegatee.deserialize(object.asParserOnFirstToken(), ctxt);
        if (value instanceof Throwable && ((Throwable) value).getMessage() == null) {
          // Built with its no-argument constructor, which Jackson prefers when there is no (String)
          // one: the message it had is in the JSON but not in the exception.
          JsonNode message = ctxt.readTree(object.asParserOnFirstToken()).get("message");
          if (message != null && !message.isNull()) {
            DetailMessage.set((Throwable) value, message.asText());
          }
        }
        return value;
      } catch (InvalidDefinitionException cannotConstruct) {
        return standIn(ctxt.readTree(object.asParserOnFirstToken()), ctxt);
      }
    }

    /** Copies the rest of the current object; the type deserializer may have consumed its start already. */
    private static TokenBuffer bufferObject(JsonParser p, DeserializationContext ctxt) throws IOException {
      TokenBuffer buffer = ctxt.bufferForInputBuffering(p);
      buffer.writeStartObject();
      JsonToken token = p.currentToken();
      if (token == JsonToken.START_OBJECT) {
        token = p.nextToken();
      }
      for (; token == JsonToken.FIELD_NAME; token = p.nextToken()) {
        buffer.copyCurrentStructure(p);
      }
      buffer.writeEndObject();
      return buffer;
    }

    private RemoteServiceException standIn(JsonNode node, DeserializationContext ctxt) throws IOException {
      JsonNode message = node.get("message");
      // A server's stand-in names the class it stands for; any other exception is the class it claims.
      JsonNode remoteClass = type == RemoteServiceException.class ? node.get("remoteClassName") : null;
      RemoteServiceException standIn = new RemoteServiceException(
          remoteClass == null || remoteClass.isNull() ? type.getName() : remoteClass.asText(),
          message == null || message.isNull() ? null : message.asText());
      JsonNode stackTrace = node.get("stackTrace");
      standIn.setStackTrace(stackTrace == null || stackTrace.isNull()
          ? new StackTraceElement[0]
          : ctxt.readTreeAsValue(stackTrace, StackTraceElement[].class));
      JsonNode cause = node.get("cause");
      if (cause != null && !cause.isNull()) {
        standIn.initCause(ctxt.readTreeAsValue(cause, Throwable.class));
      }
      JsonNode suppressed = node.get("suppressed");
      if (suppressed != null && suppressed.isArray()) {
        for (JsonNode one : suppressed) {
          standIn.addSuppressed(ctxt.readTreeAsValue(one, Throwable.class));
        }
      }
      return standIn;
    }
  }
}
