/** JSON (Jackson) for plain Java service types; see {@link io.triplerpc.serialization.json.JsonObjectSerialization}. */
package io.triplerpc.serialization.json;
