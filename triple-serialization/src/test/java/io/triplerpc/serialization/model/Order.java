package io.triplerpc.serialization.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** A POJO with a field of every kind the issue names; fields only, no getters. */
public class Order {
  private long id;
  private boolean paid;
  private double weight;
  private Integer quantity;
  private String note;
  private BigDecimal amount;
  private BigInteger serial;
  private Instant created;
  private LocalDate due;
  private LocalDateTime pickup;
  private Duration window;
  private ZonedDateTime delivery;
  private Color color;
  private Address address;
  private Animal pet;
  private List<Address> stops;
  private Map<String, List<Address>> addressBook;
  private Set<Color> colors;
  private Optional<String> coupon;
  private int[] scores;

  public Order() {}

  /** A fully populated order whose values depend on {@code seed}. */
  public static Order sample(long seed) {
    Order order = new Order();
    order.id = seed;
    order.paid = seed % 2 == 0;
    order.weight = 1.5 + seed;
    order.quantity = (int) seed * 3;
    order.note = "note " + seed + " \u00e9\u4e2d\uD83D\uDE00";
    order.amount = new BigDecimal("12345678901234567890.1230").add(BigDecimal.valueOf(seed));
    order.serial = BigInteger.TWO.pow(100).add(BigInteger.valueOf(seed)).negate();
    order.created = Instant.ofEpochSecond(1_700_000_000L + seed, 123_456_789);
    order.due = LocalDate.of(2024, 2, 29).plusDays(seed);
    order.pickup = LocalDateTime.of(2024, 3, 1, 12, 30, 15, 1_000).plusMinutes(seed);
    order.window = Duration.ofHours(2).plusMillis(seed);
    // Daylight saving ends that night in Paris: 02:30 happens twice. Only seeds of 25 and more move past it; a
    // time inside the repeated hour is tested on its own (fastjson2's JSONB keeps no offset to tell them apart).
    order.delivery = ZonedDateTime.of(2024, 10, 27, 3, 30, 0, 0, java.time.ZoneId.of("Europe/Paris")).plusHours(seed);
    order.color = Color.values()[(int) (seed % 3)];
    order.address = new Address("1 Main St", "Springfield", 12345);
    order.pet = new Dog("Rex" + seed, 3, "collie", List.of("sit", "roll"));
    order.stops = List.of(new Address("2 Side St", "Shelbyville", 2), new Address("3 Back Rd", "Ogdenville", 3));
    order.addressBook = Map.of("home", List.of(new Address("4 Home", "Capital City", 4)), "none", List.of());
    order.colors = Set.of(Color.RED, Color.BLUE);
    order.coupon = seed % 2 == 0 ? Optional.of("SAVE" + seed) : Optional.empty();
    order.scores = new int[] {1, 2, (int) seed};
    return order;
  }

  /** An order whose reference fields are all null but its {@code Optional}, which is empty. */
  public static Order empty() {
    Order order = new Order();
    order.coupon = Optional.empty();
    return order;
  }

  public long id() {
    return id;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Order)) {
      return false;
    }
    Order that = (Order) o;
    return id == that.id && paid == that.paid && Double.compare(weight, that.weight) == 0
        && Objects.equals(quantity, that.quantity) && Objects.equals(note, that.note)
        && Objects.equals(amount, that.amount) && Objects.equals(serial, that.serial)
        && Objects.equals(created, that.created) && Objects.equals(due, that.due)
        && Objects.equals(pickup, that.pickup) && Objects.equals(window, that.window)
        && Objects.equals(delivery, that.delivery) && color == that.color
        && Objects.equals(address, that.address) && Objects.equals(pet, that.pet)
        && Objects.equals(stops, that.stops) && Objects.equals(addressBook, that.addressBook)
        && Objects.equals(colors, that.colors) && Objects.equals(coupon, that.coupon)
        && Arrays.equals(scores, that.scores);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, note, amount);
  }

  @Override
  public String toString() {
    return "Order{id=" + id + ", paid=" + paid + ", weight=" + weight + ", quantity=" + quantity + ", note=" + note
        + ", amount=" + amount + ", serial=" + serial + ", created=" + created + ", due=" + due + ", pickup=" + pickup
        + ", window=" + window + ", delivery=" + delivery + ", color=" + color + ", address=" + address
        + ", pet=" + pet + ", stops=" + stops + ", addressBook=" + addressBook + ", colors=" + colors
        + ", coupon=" + coupon + ", scores=" + Arrays.toString(scores) + '}';
  }
}
