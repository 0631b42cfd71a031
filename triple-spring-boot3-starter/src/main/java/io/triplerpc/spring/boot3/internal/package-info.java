/** The Boot 3 starter's health indicators: internal, may change at any time. */
package io.triplerpc.spring.boot3.internal;
