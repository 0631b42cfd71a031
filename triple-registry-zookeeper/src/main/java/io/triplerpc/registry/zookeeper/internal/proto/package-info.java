/**
 * Protobuf messages of Apache Dubbo 3.3's {@code MetadataServiceV2}, generated from
 * {@code dubbo/metadata_service_v2.proto}, for calling a Dubbo provider's metadata service. Internal:
 * may change at any time.
 */
package io.triplerpc.registry.zookeeper.internal.proto;
