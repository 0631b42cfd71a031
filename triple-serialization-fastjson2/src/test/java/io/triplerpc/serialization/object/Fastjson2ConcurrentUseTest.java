package io.triplerpc.serialization.object;

/** {@code triple-serialization}'s concurrency cases, run again with fastjson2 installed. */
class Fastjson2ConcurrentUseTest extends ConcurrentUseTest {}
