package io.triplerpc.transport.netty.pojo;

import java.util.List;

/** A generic supertype: its type variable is resolved against the service interface. */
public interface Repository<T> {

  T find(String id);

  List<T> findAll();
}
