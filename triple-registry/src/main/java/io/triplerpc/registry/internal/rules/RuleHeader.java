package io.triplerpc.registry.internal.rules;

/**
 * The fields every Dubbo rule has, with Dubbo's defaults when a rule leaves them out.
 *
 * @param key what the rule is for (an application or a service key), or null if the rule does not say
 * @param scope {@code application} or {@code service}, or null if the rule does not say
 * @param configVersion the rule format's version ({@code v2.7}, {@code v3.0}), or null
 * @param enabled false: the rule is kept but not applied (Dubbo's default true)
 * @param force routers: whether an empty result stands rather than falling back (default false)
 * @param runtime routers: whether the rule is evaluated per call (default true)
 * @param priority routers: the higher first (default 0)
 */
public record RuleHeader(String key, String scope, String configVersion, boolean enabled, boolean force,
    boolean runtime, int priority) {}
