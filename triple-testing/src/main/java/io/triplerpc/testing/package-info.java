/**
 * Test fixtures shared by Triple's modules. {@link io.triplerpc.testing.LeakDetectionExtension} is
 * registered for auto-detection, so a module's tests fail on a leaked Netty buffer as soon as this
 * module is on their class path. {@link io.triplerpc.testing.FaultProxy} puts a network that delays,
 * blackholes, partitions, resets or refuses between a real client and server.
 */
package io.triplerpc.testing;
