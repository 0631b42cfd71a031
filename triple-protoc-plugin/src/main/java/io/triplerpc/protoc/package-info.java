/**
 * {@code protoc-gen-triple}: the protoc plugin that turns each service of a {@code .proto} file into a
 * {@code @TripleService} Java interface. {@link io.triplerpc.protoc.ProtocGenTriple} is its entry point;
 * nothing else here is API.
 */
package io.triplerpc.protoc;
