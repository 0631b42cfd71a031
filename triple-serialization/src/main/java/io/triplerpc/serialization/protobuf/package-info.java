/** Protobuf messages on the wire as plain protobuf, as every gRPC implementation expects. */
package io.triplerpc.serialization.protobuf;
