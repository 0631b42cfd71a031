/**
 * gRPC's interop test service ({@code grpc.testing.TestService}) served and called with Triple, for
 * testing against other gRPC implementations.
 */
package io.triplerpc.interop;
