package io.triplerpc.serialization.json;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.databind.introspect.AnnotatedField;
import com.fasterxml.jackson.databind.introspect.VisibilityChecker;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Makes the fields of application classes properties whatever their access, as hessian sees them, while
 * the fields a class inherits from the JDK (an exception's {@code Throwable} state) stay as Jackson sees
 * them by default: JDK internals are not reflectively accessible, and {@code Throwable}'s state travels
 * through its public accessors.
 */
final class FieldVisibility extends VisibilityChecker.Std {

  private static final long serialVersionUID = 1L;

  /** Jackson's default levels (public getters, any setter and creator), with fields at any access. */
  FieldVisibility() {
    this(Visibility.PUBLIC_ONLY, Visibility.PUBLIC_ONLY, Visibility.ANY, Visibility.ANY, Visibility.ANY);
  }

  private FieldVisibility(
      Visibility getter, Visibility isGetter, Visibility setter, Visibility creator, Visibility field) {
    super(getter, isGetter, setter, creator, field);
  }

  @Override
  protected VisibilityChecker.Std _with(
      Visibility getter, Visibility isGetter, Visibility setter, Visibility creator, Visibility field) {
    // Keeps this rule when an annotation changes a level for one class.
    return new FieldVisibility(getter, isGetter, setter, creator, field);
  }

  @Override
  public boolean isFieldVisible(AnnotatedField field) {
    return isFieldVisible(field.getAnnotated());
  }

  @Override
  public boolean isFieldVisible(Field field) {
    if (TypeIdPolicy.isPlatformClass(field.getDeclaringClass().getName())) {
      return Modifier.isPublic(field.getModifiers());
    }
    return super.isFieldVisible(field);
  }
}
