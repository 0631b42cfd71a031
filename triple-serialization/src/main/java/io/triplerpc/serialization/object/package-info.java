/**
 * Serialization of plain Java values (not protobuf messages) for services that declare ordinary Java
 * types: an {@link io.triplerpc.serialization.object.ObjectSerialization} per format (hessian2 and
 * jackson here, fastjson2 in {@code triple-serialization-fastjson2}), selected by name through
 * {@link io.triplerpc.serialization.object.ObjectSerializations}, hands out one
 * {@link io.triplerpc.serialization.object.ObjectCodec} per declared type.
 */
package io.triplerpc.serialization.object;
