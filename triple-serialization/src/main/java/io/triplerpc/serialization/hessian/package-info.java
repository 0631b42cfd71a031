/**
 * Hessian 2 (hessian-lite) for plain Java service types; see
 * {@link io.triplerpc.serialization.hessian.HessianObjectSerialization}.
 */
package io.triplerpc.serialization.hessian;
