package io.triplerpc.serialization.internal;

import java.util.HashSet;
import java.util.Set;

/**
 * The JDK classes (and hessian-lite's value handles for them) that any plain Java service may receive,
 * named one by one: values that hold only other values and run no code of consequence while read. Whole
 * packages are never allowed: {@code java.} also holds {@code Runtime}, {@code ProcessBuilder}, class
 * loaders, {@code javax.management}, {@code java.rmi}, {@code java.net.URL} (whose {@code hashCode}
 * resolves host names) and collections that call a comparator ({@code PriorityQueue}).
 *
 * <p>A JDK class outside this list is still allowed where a service's signature names it (see
 * {@link ReachableClasses}).
 */
public final class SafeJdkClasses {

  /** What a hessian2, fastjson2 or jackson reader may need to materialize the values of any service. */
  public static final Set<String> NAMES = names();

  private SafeJdkClasses() {}

  private static Set<String> names() {
    Set<String> names = new HashSet<>();
    // Scalars and their boxes; Object, for hessian's untyped "object".
    add(names, "java.lang.", "Object", "Boolean", "Byte", "Short", "Integer", "Long", "Float", "Double",
        "Character", "String", "Number", "StackTraceElement");
    add(names, "java.math.", "BigDecimal", "BigInteger");
    add(names, "java.util.", "Date", "UUID", "Locale", "Currency", "Optional", "OptionalInt", "OptionalLong",
        "OptionalDouble");
    // Time: values, and the zone and unit enums they are built from.
    add(names, "java.time.", "Instant", "Duration", "Period", "LocalDate", "LocalTime", "LocalDateTime",
        "OffsetDateTime", "OffsetTime", "ZonedDateTime", "Year", "YearMonth", "MonthDay", "ZoneId", "ZoneOffset",
        "ZoneRegion", "DayOfWeek", "Month");
    add(names, "java.time.temporal.", "ChronoUnit");
    add(names, "java.util.concurrent.", "TimeUnit");
    // Collections hessian and Jackson materialize, or that List.of, Map.of, Collections.* and Arrays.asList
    // produce on the writing side. They store what they are given; sorted ones compare allowed keys only.
    add(names, "java.util.", "List", "Set", "Map", "Collection", "SortedSet", "SortedMap", "NavigableSet",
        "NavigableMap", "Deque", "Queue", "ArrayList", "LinkedList", "Vector", "ArrayDeque", "HashMap",
        "LinkedHashMap", "TreeMap", "HashSet", "LinkedHashSet", "TreeSet", "Arrays$ArrayList");
    // fastjson2 names an EnumSet by its JDK class; it reads it as the declared set of the enum named.
    add(names, "java.util.", "EnumSet", "RegularEnumSet", "JumboEnumSet");
    add(names, "java.util.Collections$", "EmptyList", "EmptySet", "EmptyMap", "SingletonList", "SingletonSet",
        "SingletonMap", "UnmodifiableCollection", "UnmodifiableList", "UnmodifiableRandomAccessList",
        "UnmodifiableSet", "UnmodifiableSortedSet", "UnmodifiableNavigableSet", "UnmodifiableMap",
        "UnmodifiableSortedMap", "UnmodifiableNavigableMap");
    add(names, "java.util.ImmutableCollections$", "List12", "ListN", "SubList", "Set12", "SetN", "Map1", "MapN");
    add(names, "java.util.concurrent.", "ConcurrentHashMap", "ConcurrentSkipListMap", "ConcurrentSkipListSet",
        "CopyOnWriteArrayList", "CopyOnWriteArraySet");
    // Exceptions a service commonly throws or wraps, and their causes: they carry a message, a cause, a
    // stack trace and suppressed exceptions, nothing else.
    add(names, "java.lang.", "Throwable", "Exception", "RuntimeException", "IllegalArgumentException",
        "IllegalStateException", "NullPointerException", "UnsupportedOperationException",
        "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException",
        "ArithmeticException", "ClassCastException", "NumberFormatException", "ArrayStoreException",
        "NegativeArraySizeException", "SecurityException", "InterruptedException", "CloneNotSupportedException");
    add(names, "java.util.", "NoSuchElementException", "ConcurrentModificationException");
    add(names, "java.util.concurrent.", "TimeoutException", "CancellationException", "ExecutionException",
        "CompletionException", "RejectedExecutionException");
    add(names, "java.io.", "IOException", "UncheckedIOException", "FileNotFoundException", "EOFException");
    add(names, "java.time.", "DateTimeException");
    add(names, "java.time.format.", "DateTimeParseException");
    // What a server sends in place of an exception (or cause) whose class its clients may not build.
    add(names, "io.triplerpc.serialization.object.", "RemoteServiceException");
    // hessian-lite writes these handles in place of the values they stand for (readResolve builds them).
    add(names, "com.alibaba.com.caucho.hessian.io.java8.", "DurationHandle", "InstantHandle", "LocalDateHandle",
        "LocalDateTimeHandle", "LocalTimeHandle", "MonthDayHandle", "OffsetDateTimeHandle", "OffsetTimeHandle",
        "PeriodHandle", "YearHandle", "YearMonthHandle", "ZoneIdHandle", "ZoneOffsetHandle",
        "ZonedDateTimeHandle");
    add(names, "com.alibaba.com.caucho.hessian.io.", "ByteHandle", "ShortHandle", "FloatHandle", "LocaleHandle");
    return Set.copyOf(names);
  }

  private static void add(Set<String> names, String prefix, String... simpleNames) {
    for (String name : simpleNames) {
      names.add(prefix + name);
    }
  }

  /** Whether {@code name} is a class of the JDK, where no application class can be. */
  public static boolean isPlatform(String name) {
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
        || name.startsWith("sun.") || name.startsWith("com.sun.");
  }
}
