/**
 * Governance rules from a config center (Apache Dubbo's tag router, condition router and dynamic
 * configuration): strict parsers, the compiled rules, and the last good rule of each key kept live; may
 * change at any time.
 */
package io.triplerpc.registry.internal.rules;
