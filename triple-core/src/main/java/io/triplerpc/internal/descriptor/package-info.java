/** Service and method descriptors, built once by reflection at export or refer time. May change at any time. */
package io.triplerpc.internal.descriptor;
