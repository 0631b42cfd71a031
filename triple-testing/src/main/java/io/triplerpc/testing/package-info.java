/** Test fixtures shared by Triple's modules: Netty leak detection that fails the tests that leak. */
package io.triplerpc.testing;
