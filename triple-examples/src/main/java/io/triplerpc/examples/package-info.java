/** The runnable demo of the README: a greeter served and called with Triple. */
package io.triplerpc.examples;
