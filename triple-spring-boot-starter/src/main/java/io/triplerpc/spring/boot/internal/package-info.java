/**
 * The machinery behind the auto-configuration: the server's lifecycle, finding service beans, making and
 * injecting clients, health indicators. Internal: may change at any time.
 */
package io.triplerpc.spring.boot.internal;
