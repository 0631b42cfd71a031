package io.triplerpc.internal.reflection;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.Message;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.MethodType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protobuf descriptors of a server's services, by file name and by symbol, for server reflection.
 *
 * <p>A service is described by the {@code .proto} file that declares it: the one its interface names
 * ({@link io.triplerpc.TripleService#protoFile()}, which protoc-gen-triple fills in), else one of its
 * messages' files (or their imports) when it declares the service. A service whose methods all take and
 * return generated protobuf messages but that no file declares (a hand-written interface) gets a file
 * made for it, {@code triple/<service>.proto}, which imports its messages' files. Services with other
 * types (plain Java objects) are listed but not described.
 */
public final class DescriptorIndex {

  private static final Logger log = LoggerFactory.getLogger(DescriptorIndex.class);

  private final List<String> serviceNames;
  private final Map<String, FileDescriptor> filesByName = new HashMap<>();
  private final Map<String, FileDescriptor> filesBySymbol = new HashMap<>();
  /** Extendee full name → extension number → the file declaring the extension. */
  private final Map<String, Map<Integer, FileDescriptor>> extensions = new HashMap<>();
  private final Set<String> messageTypes = new LinkedHashSet<>();

  private DescriptorIndex(List<String> serviceNames) {
    this.serviceNames = serviceNames;
  }

  /** The index of the services of {@code methods}. */
  public static DescriptorIndex of(Collection<? extends MethodDescriptor<?, ?>> methods) {
    return of(methods, Map.of());
  }

  /**
   * The index of the services of {@code methods}, where {@code protoFiles} names, by service, the outer
   * class of the file that declares it ({@link io.triplerpc.TripleService#protoFile()}).
   */
  public static DescriptorIndex of(Collection<? extends MethodDescriptor<?, ?>> methods,
      Map<String, Class<?>> protoFiles) {
    Map<String, List<MethodDescriptor<?, ?>>> byService = new LinkedHashMap<>();
    for (MethodDescriptor<?, ?> method : methods) {
      byService.computeIfAbsent(method.serviceName(), k -> new ArrayList<>()).add(method);
    }
    DescriptorIndex index = new DescriptorIndex(List.copyOf(new TreeSet<>(byService.keySet())));
    byService.forEach((service, serviceMethods) -> {
      try {
        FileDescriptor file = declaredIn(protoFiles.get(service), service);
        if (file == null) {
          file = index.describe(service, serviceMethods);
        }
        if (file != null) {
          index.add(file);
        }
      } catch (DescriptorValidationException | RuntimeException e) {
        log.debug("Service {} is served but not described by reflection", service, e);
      }
    });
    return index;
  }

  /** Every service served, sorted by name. */
  public List<String> serviceNames() {
    return serviceNames;
  }

  /** The file named {@code name}, or null. */
  public FileDescriptor fileByName(String name) {
    return filesByName.get(name);
  }

  /** The file declaring a fully qualified service, method, message, enum or extension, or null. */
  public FileDescriptor fileContainingSymbol(String symbol) {
    return filesBySymbol.get(symbol);
  }

  /** The file declaring extension {@code number} of {@code messageType}, or null. */
  public FileDescriptor fileContainingExtension(String messageType, int number) {
    Map<Integer, FileDescriptor> numbers = extensions.get(messageType);
    return numbers == null ? null : numbers.get(number);
  }

  /** The known extension numbers of {@code messageType}, sorted, or null for an unknown type. */
  public List<Integer> extensionNumbers(String messageType) {
    if (!messageTypes.contains(messageType)) {
      return null;
    }
    Map<Integer, FileDescriptor> numbers = extensions.getOrDefault(messageType, Map.of());
    return List.copyOf(new TreeSet<>(numbers.keySet()));
  }

  /** {@code file} and every file it imports, transitively, each once: the file first. */
  public static List<FileDescriptor> withDependencies(FileDescriptor file) {
    Set<FileDescriptor> seen = new LinkedHashSet<>();
    collect(file, seen);
    return List.copyOf(seen);
  }

  private static void collect(FileDescriptor file, Set<FileDescriptor> seen) {
    if (seen.add(file)) {
      for (FileDescriptor dependency : file.getDependencies()) {
        collect(dependency, seen);
      }
    }
  }

  /**
   * The file whose outer class is {@code protoFile}, if it declares {@code service}; null otherwise (no
   * class named, or one that is not a protoc outer class of the service's file: the index then looks
   * for the file as without it, and says why at debug level).
   */
  private static FileDescriptor declaredIn(Class<?> protoFile, String service) {
    if (protoFile == null) {
      return null;
    }
    try {
      Object descriptor = protoFile.getMethod("getDescriptor").invoke(null);
      if (descriptor instanceof FileDescriptor file && findService(file, service) != null) {
        return file;
      }
      log.debug("{}, named by the protoFile of {}, does not declare it", protoFile.getName(), service);
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.debug("{}, named by the protoFile of {}, has no static getDescriptor()", protoFile.getName(), service, e);
    }
    return null;
  }

  /**
   * The .proto declaration of {@code service}: from its {@code protoFile} class if named, else from the
   * files of its methods' messages and their imports; null if none declares it.
   */
  public static ServiceDescriptor declaredService(Class<?> protoFile, String service,
      List<MethodDescriptor<?, ?>> methods) {
    FileDescriptor file = declaredIn(protoFile, service);
    if (file != null) {
      return findService(file, service);
    }
    for (MethodDescriptor<?, ?> method : methods) {
      Descriptor request = protobufDescriptor(method.requestCodec().messageType());
      if (request == null) {
        continue;
      }
      for (FileDescriptor candidate : withDependencies(request.getFile())) {
        ServiceDescriptor declared = findService(candidate, service);
        if (declared != null) {
          return declared;
        }
      }
    }
    return null;
  }

  /** The file that describes {@code service}, made if no .proto file declares it; null if it cannot be. */
  private FileDescriptor describe(String service, List<MethodDescriptor<?, ?>> methods)
      throws DescriptorValidationException {
    Map<String, Descriptor> messages = new LinkedHashMap<>();
    for (MethodDescriptor<?, ?> method : methods) {
      Descriptor request = protobufDescriptor(method.requestCodec().messageType());
      Descriptor response = protobufDescriptor(method.responseCodec().messageType());
      if (request == null || response == null) {
        return null;
      }
      messages.put(request.getFullName(), request);
      messages.put(response.getFullName(), response);
    }
    for (Descriptor message : messages.values()) {
      for (FileDescriptor file : withDependencies(message.getFile())) {
        ServiceDescriptor declared = findService(file, service);
        if (declared != null) {
          return file;
        }
      }
    }
    int dot = service.lastIndexOf('.');
    ServiceDescriptorProto.Builder serviceProto = ServiceDescriptorProto.newBuilder()
        .setName(service.substring(dot + 1));
    for (MethodDescriptor<?, ?> method : methods) {
      MethodType type = method.type();
      serviceProto.addMethod(MethodDescriptorProto.newBuilder()
          .setName(method.methodName())
          .setInputType("." + protobufDescriptor(method.requestCodec().messageType()).getFullName())
          .setOutputType("." + protobufDescriptor(method.responseCodec().messageType()).getFullName())
          .setClientStreaming(type == MethodType.CLIENT_STREAMING || type == MethodType.BIDI_STREAMING)
          .setServerStreaming(type == MethodType.SERVER_STREAMING || type == MethodType.BIDI_STREAMING));
    }
    Map<String, FileDescriptor> dependencies = new LinkedHashMap<>();
    messages.values().forEach(message -> dependencies.put(message.getFile().getName(), message.getFile()));
    FileDescriptorProto.Builder file = FileDescriptorProto.newBuilder()
        .setName("triple/" + service + ".proto")
        .setSyntax("proto3")
        .addAllDependency(dependencies.keySet())
        .addService(serviceProto);
    if (dot > 0) {
      file.setPackage(service.substring(0, dot));
    }
    return FileDescriptor.buildFrom(file.build(), dependencies.values().toArray(new FileDescriptor[0]));
  }

  private static ServiceDescriptor findService(FileDescriptor file, String fullName) {
    for (ServiceDescriptor service : file.getServices()) {
      if (service.getFullName().equals(fullName)) {
        return service;
      }
    }
    return null;
  }

  private static Descriptor protobufDescriptor(Class<?> type) {
    if (type == null || !Message.class.isAssignableFrom(type)) {
      return null;
    }
    try {
      return (Descriptor) type.getMethod("getDescriptor").invoke(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      return null;
    }
  }

  private void add(FileDescriptor root) {
    for (FileDescriptor file : withDependencies(root)) {
      if (filesByName.putIfAbsent(file.getName(), file) != null) {
        continue;
      }
      for (ServiceDescriptor service : file.getServices()) {
        filesBySymbol.putIfAbsent(service.getFullName(), file);
        service.getMethods().forEach(method -> filesBySymbol.putIfAbsent(method.getFullName(), file));
      }
      file.getMessageTypes().forEach(message -> addMessage(message, file));
      file.getEnumTypes().forEach(e -> filesBySymbol.putIfAbsent(e.getFullName(), file));
      file.getExtensions().forEach(extension -> addExtension(extension, file));
    }
  }

  private void addMessage(Descriptor message, FileDescriptor file) {
    filesBySymbol.putIfAbsent(message.getFullName(), file);
    messageTypes.add(message.getFullName());
    for (EnumDescriptor nested : message.getEnumTypes()) {
      filesBySymbol.putIfAbsent(nested.getFullName(), file);
    }
    message.getNestedTypes().forEach(nested -> addMessage(nested, file));
    message.getExtensions().forEach(extension -> addExtension(extension, file));
  }

  private void addExtension(FieldDescriptor extension, FileDescriptor file) {
    filesBySymbol.putIfAbsent(extension.getFullName(), file);
    extensions.computeIfAbsent(extension.getContainingType().getFullName(), k -> new HashMap<>())
        .putIfAbsent(extension.getNumber(), file);
  }
}
