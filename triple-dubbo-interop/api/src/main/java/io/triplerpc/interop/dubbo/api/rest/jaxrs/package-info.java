/**
 * A JAX-RS ({@code javax.ws.rs}) service interface exactly as one of Dubbo's own REST samples declares
 * it, and the one implementation both the Dubbo peer and Triple serve (DubboRestParityTest).
 */
package io.triplerpc.interop.dubbo.api.rest.jaxrs;
