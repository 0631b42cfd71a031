/**
 * fastjson2's binary JSONB for plain Java service types, as Apache Dubbo 3.3 writes it; see
 * {@link io.triplerpc.serialization.fastjson2.Fastjson2ObjectSerialization}.
 */
package io.triplerpc.serialization.fastjson2;
