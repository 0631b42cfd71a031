package io.triplerpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The comments a {@code .proto} file gives a service and what it carries, for the OpenAPI document a server
 * serves of the service's REST routes: the service's comment describes its tag, a method's its operation (the
 * first paragraph as the summary when there are several), a message's or enum's its schema, a field's its
 * property. protoc's Java classes do not keep comments, so protoc-gen-triple writes them here, on the
 * interfaces it generates, from the files protoc reads with their source information.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ProtoComments {

  /** The comments, in no particular order; a declaration appears at most once. */
  Comment[] value();

  /** One declaration's comment. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({})
  @interface Comment {

    /**
     * The declaration's full name: {@code pkg.Service}, {@code pkg.Service.Method}, {@code pkg.Message} (nested:
     * {@code pkg.Outer.Inner}), {@code pkg.Message.field_name}, {@code pkg.Enum}.
     */
    String element();

    /** Its comment, the leading one or else the trailing one, without the comment markers' indentation. */
    String text();
  }
}
