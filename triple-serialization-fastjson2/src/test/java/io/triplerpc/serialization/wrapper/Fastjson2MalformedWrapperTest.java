package io.triplerpc.serialization.wrapper;

/** {@code triple-serialization}'s malformed wrappers, run again with fastjson2 installed. */
class Fastjson2MalformedWrapperTest extends MalformedWrapperTest {}
