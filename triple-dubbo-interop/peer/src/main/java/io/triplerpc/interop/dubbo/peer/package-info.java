/**
 * The Dubbo peer: a plain Apache Dubbo 3.3.6 application (no Triple on its class path) that Triple's
 * interop tests start in a JVM of their own, as a provider to call or a consumer to drive line by line.
 */
package io.triplerpc.interop.dubbo.peer;
