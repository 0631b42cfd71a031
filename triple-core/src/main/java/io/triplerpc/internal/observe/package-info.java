/** How calls are told to {@link io.triplerpc.CallObserver}s. */
package io.triplerpc.internal.observe;
