/**
 * The interop services as the Dubbo application declares them: plain Java types (hessian2) and
 * protobuf messages. Triple's tests declare the same names on their side; only the names, the shapes
 * and the documented behaviour are shared, never a class file.
 */
package io.triplerpc.interop.dubbo.api;
