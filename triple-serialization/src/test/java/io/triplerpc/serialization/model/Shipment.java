package io.triplerpc.serialization.model;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A record of records, a list, an enum, an {@code Optional} and a {@code java.time} component. */
public record Shipment(Address from, List<Address> stops, Color label, Optional<Instant> eta) {}
