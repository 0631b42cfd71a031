/**
 * gRPC server reflection ({@code grpc.reflection.v1} and {@code v1alpha}) over the protobuf
 * descriptors of a server's services, for grpcurl and similar tools. May change at any time.
 */
package io.triplerpc.internal.reflection;
