package io.triplerpc.spring.boot.internal;

import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Finds the beans to serve: singletons whose class implements an interface annotated {@link TripleService}.
 * A JDK proxy that is not a Spring AOP proxy (a Triple client proxy, say) implements the interface
 * without implementing the service, and is never served.
 */
public final class ServiceBeans {

  private ServiceBeans() {}

  /** A bean and the service interface it is served as. */
  public record Export(String beanName, Class<?> serviceInterface) {

    /** The service's name on the wire. */
    public String serviceName() {
      String name = serviceInterface.getAnnotation(TripleService.class).name();
      return name.isEmpty() ? serviceInterface.getName() : name;
    }
  }

  /**
   * Whether a bean definition's type, known without creating the bean, is a class implementing a
   * service interface: what decides, before any bean exists, that the application serves something.
   */
  public static boolean anyDeclared(ConfigurableListableBeanFactory beanFactory) {
    for (String name : beanFactory.getBeanDefinitionNames()) {
      Class<?> type = typeOf(beanFactory, name);
      if (type != null && !type.isInterface() && !Proxy.isProxyClass(type) && !serviceInterfaces(type).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Adds every service bean to {@code builder}; creates the beans. */
  public static List<Export> exportAll(ConfigurableListableBeanFactory beanFactory, TripleServer.Builder builder) {
    List<Export> exports = new ArrayList<>();
    Map<Class<?>, String> servedBy = new LinkedHashMap<>();
    for (String name : beanFactory.getBeanDefinitionNames()) {
      Class<?> type = typeOf(beanFactory, name);
      if (type == null || serviceInterfaces(type).isEmpty() || !beanFactory.getBeanDefinition(name).isSingleton()) {
        continue;
      }
      Object bean = beanFactory.getBean(name);
      if (Proxy.isProxyClass(bean.getClass()) && !AopUtils.isAopProxy(bean)) {
        continue;
      }
      for (Class<?> service : serviceInterfaces(bean.getClass())) {
        String other = servedBy.putIfAbsent(service, name);
        if (other != null) {
          throw new IllegalStateException("Beans '" + other + "' and '" + name + "' both implement " + service.getName()
              + ": serve one of them (triple.server.export-services=false and a TripleServerCustomizer"
              + " adding each with its own version or group)");
        }
        add(builder, service, bean, name);
        exports.add(new Export(name, service));
      }
    }
    return exports;
  }

  @SuppressWarnings("unchecked")
  private static <T> void add(TripleServer.Builder builder, Class<T> service, Object bean, String name) {
    try {
      builder.addService(service, (T) bean);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("Bean '" + name + "' cannot be served as " + service.getName() + ": "
          + e.getMessage(), e);
    }
  }

  private static Class<?> typeOf(ConfigurableListableBeanFactory beanFactory, String name) {
    if (beanFactory.getBeanDefinition(name).isAbstract()) {
      return null;
    }
    // false: a FactoryBean is not created just to learn what it makes.
    return beanFactory.getType(name, false);
  }

  /** The {@link TripleService} interfaces {@code type} implements, directly or through its supertypes. */
  static Set<Class<?>> serviceInterfaces(Class<?> type) {
    Set<Class<?>> services = new LinkedHashSet<>();
    collect(type, services, new LinkedHashSet<>());
    return services;
  }

  private static void collect(Class<?> type, Set<Class<?>> services, Set<Class<?>> seen) {
    if (type == null || !seen.add(type)) {
      return;
    }
    if (type.isInterface() && type.isAnnotationPresent(TripleService.class)) {
      services.add(type);
    }
    for (Class<?> implemented : type.getInterfaces()) {
      collect(implemented, services, seen);
    }
    collect(type.getSuperclass(), services, seen);
  }
}
