/**
 * Spring Boot 3.5's Actuator health for Triple; the rest of the auto-configuration is the Boot 4 starter's
 * ({@code io.triplerpc.spring.boot.autoconfigure}), compiled against Boot 3.5 in this module.
 */
package io.triplerpc.spring.boot3.autoconfigure;
