/**
 * Generated protobuf classes of Dubbo's Triple wrapper messages (src/main/proto/triple_wrapper.proto);
 * not API, may change at any time.
 */
package io.triplerpc.serialization.internal.wrapper;
