/**
 * The serialization SPI: how a message type becomes bytes on the wire and back.
 *
 * <p>A {@link io.triplerpc.serialization.Serialization} is a plug-in found with {@link java.util.ServiceLoader};
 * it hands out one {@link io.triplerpc.serialization.MessageCodec} per message type, built once when a
 * service is exported or referred and reused for every call.
 *
 * <p>Methods whose types are not protobuf messages take another route: their values are serialized one by
 * one by an {@link io.triplerpc.serialization.object.ObjectSerialization} (hessian2, jackson, or fastjson2 from
 * its own artifact) and travel in Dubbo's Triple wrapper messages, through the per-method codecs of
 * {@link io.triplerpc.serialization.wrapper.WrapperCodecs}.
 */
package io.triplerpc.serialization;
