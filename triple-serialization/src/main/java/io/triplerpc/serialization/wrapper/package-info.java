/**
 * Non-protobuf service methods on the gRPC wire, in the request and response wrapper messages of Apache
 * Dubbo 3's Triple; see {@link io.triplerpc.serialization.wrapper.WrapperCodecs}.
 */
package io.triplerpc.serialization.wrapper;
