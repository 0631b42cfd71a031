/**
 * The registry on ZooKeeper: {@link io.triplerpc.registry.zookeeper.ZooKeeperRegistry}, and the governance
 * rules Apache Dubbo's config center keeps there: {@link io.triplerpc.registry.zookeeper.ZooKeeperRuleSource}
 * ({@code /dubbo/config/dubbo/<key>}). Everything else in this package is package-private and may change at
 * any time.
 *
 * <p>Triple's own tree ({@code ZooKeeperRegistry.Layout.TRIPLE}), under the root ({@code /triple} by
 * default):
 *
 * <pre>
 * /triple/instances/{application}/{host:port}   EPHEMERAL, {"weight":100,"revision":"...","ports":{...}}
 * /triple/metadata/{application}/{revision}     persistent, written once: {"services":[...]}
 * /triple/mapping/{serviceName}/{application}   persistent, empty
 * </pre>
 *
 * <p>Apache Dubbo 3.3's application-level tree ({@code ZooKeeperRegistry.Layout.DUBBO}, the default
 * for the root {@code /dubbo}), shared with Dubbo applications registered with
 * {@code registry-type=service}:
 *
 * <pre>
 * /services/{application}/{host:port}        EPHEMERAL, Curator x-discovery's ServiceInstance JSON whose
 *                                            payload (Dubbo's ZookeeperInstance) holds dubbo.metadata.revision,
 *                                            dubbo.metadata.storage-type, dubbo.endpoints...
 * /dubbo/mapping/{interface}                 persistent, "app1,app2", updated by compare-and-set
 * /dubbo/metadata/{application}/{revision}   persistent, Dubbo's MetadataInfo JSON (metadata-type remote)
 * </pre>
 */
package io.triplerpc.registry.zookeeper;
