package io.triplerpc.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.triplerpc.MethodDescriptor;
import io.triplerpc.TripleService;
import io.triplerpc.internal.descriptor.MethodBinding;
import io.triplerpc.internal.descriptor.ServiceDescriptor;
import io.triplerpc.serialization.wrapper.OverloadedArguments;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A server serves the overloads of a name as one method, and every other method exactly as before: with the
 * descriptor (and so the codecs) of its own binding, nothing put in front of them.
 */
class ServiceAdaptersOverloadsTest {

  @TripleService(name = "test.Counters")
  interface Counters {
    long count();

    long count(String kind);

    String name(long id);
  }

  static final class CountersImpl implements Counters {
    @Override
    public long count() {
      return 0;
    }

    @Override
    public long count(String kind) {
      return kind.length();
    }

    @Override
    public String name(long id) {
      return "n" + id;
    }
  }

  @Test
  void overloadsShareOneDefinitionAndOtherMethodsKeepTheirOwnDescriptor() {
    Map<String, List<MethodDescriptor<?, ?>>> served = ServiceAdapters.definitions(Counters.class, new CountersImpl())
        .stream().map(ServerMethodDefinition::method)
        .collect(Collectors.groupingBy(MethodDescriptor::methodName));
    assertEquals(1, served.get("count").size(), "one RPC method for both overloads");
    assertEquals(1, served.get("name").size());
    ServiceDescriptor service = ServiceDescriptor.of(Counters.class);
    MethodBinding name = service.methods().stream()
        .filter(binding -> binding.descriptor().methodName().equals("name")).findFirst().orElseThrow();
    assertSame(name.descriptor(), served.get("name").get(0), "a method of a name of its own is served as it was");
    assertSame(service.overloads(service.methods().get(0)).descriptor(), served.get("count").get(0));
    assertInstanceOf(OverloadedArguments.class, served.get("count").get(0).requestCodec());
  }
}
