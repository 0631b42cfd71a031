/**
 * REST over the served methods: {@code google.api.http} rules read from the .proto descriptors, their
 * path templates matched, and requests and responses transcoded to and from JSON as grpc-gateway does.
 * May change at any time.
 */
package io.triplerpc.internal.rest;
