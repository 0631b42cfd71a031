/** The client call path: proxy, TripleInvoker, ClientCall, ThreadlessExecutor. May change at any time. */
package io.triplerpc.internal.client;
