package io.triplerpc.serialization.model;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A plain Java service interface with every method shape the wrapper codecs serve. */
public interface ShopService {
  Order place(Order order, int quantity, String note, Animal pet, Optional<LocalDate> due) throws OutOfStockException;

  List<Order> list();

  void cancel(long id);

  Map<String, List<Address>> addressBook(Map<String, List<Address>> changes, List<Color> colors);

  int count(int a, long b, double c, boolean d, char e, short f, byte g, float h);

  Integer boxed(Integer a, Long b, Double c, Boolean d, Character e, Short f, Byte g, Float h);

  String[] names(String[] in, int[] numbers, Address[] addresses, byte[] bytes);

  BigDecimal total(BigDecimal amount, java.math.BigInteger units);

  CompletableFuture<Shipment> ship(Shipment shipment);

  Animal adopt(Animal animal) throws OutOfStockException, OrderRejectedException;
}
