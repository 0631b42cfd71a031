package io.triplerpc.serialization.wrapper;

/**
 * {@code triple-serialization}'s wrapper cases, run again with fastjson2 installed: every method writes and
 * reads fastjson2 too, and reads what hessian2 and jackson callers write.
 */
class Fastjson2WrapperCodecsTest extends WrapperCodecsTest {}
