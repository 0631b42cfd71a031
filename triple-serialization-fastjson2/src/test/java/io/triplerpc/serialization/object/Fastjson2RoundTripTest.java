package io.triplerpc.serialization.object;

/** {@code triple-serialization}'s round trips, run again with fastjson2 installed: each case in all three. */
class Fastjson2RoundTripTest extends ObjectSerializationRoundTripTest {}
