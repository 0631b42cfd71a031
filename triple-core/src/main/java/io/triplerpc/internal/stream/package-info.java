/** The contracts a transport implements (streams and their listeners) and core consumes. May change at any time. */
package io.triplerpc.internal.stream;
