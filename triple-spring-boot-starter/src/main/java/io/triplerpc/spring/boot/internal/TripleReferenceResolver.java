package io.triplerpc.spring.boot.internal;

import io.triplerpc.spring.boot.TripleReference;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinitionHolder;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.DependencyDescriptor;
import org.springframework.beans.factory.support.AutowireCandidateResolver;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * Resolves constructor and {@code @Bean} method parameters annotated {@link TripleReference} to client
 * proxies, as {@code @Value} parameters are resolved to values (its suggested value); everything else goes
 * to the resolver it wraps, Spring's own.
 */
public final class TripleReferenceResolver implements AutowireCandidateResolver {

  private final AutowireCandidateResolver delegate;
  private final BeanFactory beanFactory;

  private TripleReferenceResolver(AutowireCandidateResolver delegate, BeanFactory beanFactory) {
    this.delegate = delegate;
    this.beanFactory = beanFactory;
  }

  /** Wraps the bean factory's resolver, before any bean that may take a reference is created. */
  public static BeanFactoryPostProcessor installer() {
    return TripleReferenceResolver::install;
  }

  private static void install(ConfigurableListableBeanFactory beanFactory) {
    if (beanFactory instanceof DefaultListableBeanFactory factory
        && !(factory.getAutowireCandidateResolver() instanceof TripleReferenceResolver)) {
      factory.setAutowireCandidateResolver(new TripleReferenceResolver(factory.getAutowireCandidateResolver(), factory));
    }
  }

  @Override
  public Object getSuggestedValue(DependencyDescriptor descriptor) {
    TripleReference reference = descriptor.getAnnotation(TripleReference.class);
    if (reference == null) {
      return delegate.getSuggestedValue(descriptor);
    }
    String where = descriptor.getField() != null
        ? descriptor.getField().getDeclaringClass().getName() + "." + descriptor.getField().getName()
        : "parameter " + descriptor.getMethodParameter().getParameterIndex() + " of "
            + descriptor.getMethodParameter().getExecutable().toGenericString();
    return beanFactory.getBean(TripleReferences.class).proxy(descriptor.getDependencyType(), reference, where);
  }

  @Override
  public boolean isAutowireCandidate(BeanDefinitionHolder holder, DependencyDescriptor descriptor) {
    return delegate.isAutowireCandidate(holder, descriptor);
  }

  @Override
  public boolean isRequired(DependencyDescriptor descriptor) {
    return delegate.isRequired(descriptor);
  }

  @Override
  public boolean hasQualifier(DependencyDescriptor descriptor) {
    return delegate.hasQualifier(descriptor);
  }

  @Override
  public String getSuggestedName(DependencyDescriptor descriptor) {
    return delegate.getSuggestedName(descriptor);
  }

  @Override
  public Object getLazyResolutionProxyIfNecessary(DependencyDescriptor descriptor, String beanName) {
    return delegate.getLazyResolutionProxyIfNecessary(descriptor, beanName);
  }

  @Override
  public Class<?> getLazyResolutionProxyClass(DependencyDescriptor descriptor, String beanName) {
    return delegate.getLazyResolutionProxyClass(descriptor, beanName);
  }

  @Override
  public AutowireCandidateResolver cloneIfNecessary() {
    return new TripleReferenceResolver(delegate.cloneIfNecessary(), beanFactory);
  }
}
