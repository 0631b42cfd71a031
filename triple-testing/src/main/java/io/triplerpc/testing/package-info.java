/**
 * Test fixtures shared by Triple's modules. {@link io.triplerpc.testing.LeakDetectionExtension} is
 * registered for auto-detection, so a module's tests fail on a leaked Netty buffer as soon as this
 * module is on their class path.
 */
package io.triplerpc.testing;
