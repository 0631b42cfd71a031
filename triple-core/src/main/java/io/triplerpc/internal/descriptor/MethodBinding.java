package io.triplerpc.internal.descriptor;

import io.triplerpc.MethodDescriptor;
import java.lang.reflect.Method;

/**
 * A Java method of a service interface bound to its RPC method. Immutable.
 *
 * @param javaMethod the interface method
 * @param descriptor the RPC method it calls
 * @param shape how the Java signature carries the call
 * @param wrapped for a method with plain Java types, how they travel; null for protobuf messages
 */
public record MethodBinding(
    Method javaMethod, MethodDescriptor<Object, Object> descriptor, CallShape shape, WrappedMethod wrapped) {}
