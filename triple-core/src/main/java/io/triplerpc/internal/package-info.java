/** Triple's internals shared by the client and the server. May change at any time. */
package io.triplerpc.internal;
