/**
 * The fuzz targets' seeds, recorded from real peers' traffic through a relay ({@link
 * io.triplerpc.interop.seeds.FuzzSeedRecorder}); test code, run on demand.
 */
package io.triplerpc.interop.seeds;
