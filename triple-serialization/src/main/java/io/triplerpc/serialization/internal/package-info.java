/** Helpers shared by the serializations; not API, may change at any time. */
package io.triplerpc.serialization.internal;
