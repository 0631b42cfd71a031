/**
 * A Spring Web service interface and its value class exactly as one of Dubbo's own REST samples declares
 * them, and the one implementation both the Dubbo peer and Triple serve (DubboRestParityTest).
 */
package io.triplerpc.interop.dubbo.api.rest.springmvc;
