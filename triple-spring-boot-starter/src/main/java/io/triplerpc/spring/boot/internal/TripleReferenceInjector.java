package io.triplerpc.spring.boot.internal;

import io.triplerpc.spring.boot.TripleReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.springframework.beans.BeansException;
import org.springframework.beans.PropertyValues;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Sets the fields annotated {@link TripleReference}, before the bean's other properties; constructor and
 * method parameters are {@link TripleReferenceResolver}'s. The clients come from the
 * {@link TripleReferences} bean, looked up on first use so that this early bean pulls nothing in.
 */
public final class TripleReferenceInjector implements InstantiationAwareBeanPostProcessor, BeanFactoryAware {

  private BeanFactory beanFactory;
  private volatile TripleReferences references;

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public PropertyValues postProcessProperties(PropertyValues values, Object bean, String beanName) throws BeansException {
    Class<?> type = ClassUtils.getUserClass(bean);
    ReflectionUtils.doWithFields(type, field -> inject(bean, beanName, field),
        field -> field.isAnnotationPresent(TripleReference.class));
    return values;
  }

  private void inject(Object bean, String beanName, Field field) {
    String where = field.getDeclaringClass().getName() + "." + field.getName();
    if (Modifier.isStatic(field.getModifiers())) {
      throw new BeanCreationException(beanName, "@TripleReference on static field " + where + ": only instance fields"
          + " are injected");
    }
    Object proxy;
    try {
      proxy = references().proxy(field.getType(), field.getAnnotation(TripleReference.class), where);
    } catch (IllegalStateException e) {
      throw new BeanCreationException(beanName, e.getMessage(), e);
    }
    ReflectionUtils.makeAccessible(field);
    ReflectionUtils.setField(field, bean, proxy);
  }

  private TripleReferences references() {
    TripleReferences found = references;
    if (found == null) {
      found = beanFactory.getBean(TripleReferences.class);
      references = found;
    }
    return found;
  }
}
