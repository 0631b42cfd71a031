/** The server dispatch path: path to method handler, server calls, service adapters. May change at any time. */
package io.triplerpc.internal.server;
