/**
 * What the server's memory does under clients that ask for large responses and never read them,
 * measured from outside its JVM ({@code scripts/slow-readers.sh}). Test tooling; may change at any time.
 */
package io.triplerpc.interop.memory;
