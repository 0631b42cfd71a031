/**
 * The values the interop services exchange, plain Java with no framework (as the API jar an estate shares):
 * both the Dubbo peer and Triple's tests use these classes. The service interfaces are declared on each
 * side, each with its framework's {@code StreamObserver} and annotations.
 */
package io.triplerpc.interop.dubbo.api;
