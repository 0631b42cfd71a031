/**
 * The serialization SPI: how a message type becomes bytes on the wire and back.
 *
 * <p>A {@link io.triplerpc.serialization.Serialization} is a plug-in found with {@link java.util.ServiceLoader};
 * it hands out one {@link io.triplerpc.serialization.MessageCodec} per message type, built once when a
 * service is exported or referred and reused for every call.
 */
package io.triplerpc.serialization;
