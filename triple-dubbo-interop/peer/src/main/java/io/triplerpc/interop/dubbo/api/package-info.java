/**
 * The interop services as the Dubbo application declares them: plain Java types (hessian2, from the
 * shared triple-dubbo-interop-api) and protobuf messages. Triple's tests declare the same interfaces on
 * their side; the names, shapes and documented behaviour are what the two share.
 */
package io.triplerpc.interop.dubbo.api;
