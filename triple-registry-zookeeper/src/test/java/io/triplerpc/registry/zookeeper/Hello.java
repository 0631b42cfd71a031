package io.triplerpc.registry.zookeeper;

import io.triplerpc.TripleService;

/** A plain Java service whose answer names the instance that served it. */
@TripleService(name = "triple.test.zk.Hello")
public interface Hello {

  String hello(String caller);
}
