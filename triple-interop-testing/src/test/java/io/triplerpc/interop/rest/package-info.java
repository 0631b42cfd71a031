/**
 * The reference for REST transcoding: grpc-gateway v2, built from {@code src/test/go/gateway} in front of
 * a Triple server that serves {@code rest/v1/library.proto}, and the table of requests that Triple's own
 * transcoding must answer as grpc-gateway does.
 */
package io.triplerpc.interop.rest;
