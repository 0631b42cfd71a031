/** gRPC wire rules that need no sockets: message framing, grpc-timeout, status mapping, percent-encoding, compression. May change at any time. */
package io.triplerpc.internal.wire;
