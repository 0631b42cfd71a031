/**
 * The interop services as Triple's side declares them: the same fully qualified names, method shapes
 * and behaviour as the Dubbo peer's copies (triple-dubbo-interop/peer), with Triple's annotations.
 */
package io.triplerpc.interop.dubbo.api;
