/**
 * The registry on ZooKeeper: {@link io.triplerpc.registry.zookeeper.ZooKeeperRegistry}. Everything else
 * in this package is package-private and may change at any time.
 *
 * <p>The tree under the root ({@code /triple} by default):
 *
 * <pre>
 * /triple/instances/{application}/{host:port}   EPHEMERAL, {"weight":100,"revision":"...","ports":{...}}
 * /triple/metadata/{application}/{revision}     persistent, written once: {"services":[...]}
 * /triple/mapping/{serviceName}/{application}   persistent, empty
 * </pre>
 */
package io.triplerpc.registry.zookeeper;
