package io.triplerpc.registry.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last known instances, metadata and service→application mapping, kept in files so a consumer
 * that restarts while the registry is down still finds its providers. Each file is written whole to
 * a temporary file and renamed over the old one, so a crash never leaves half a file.
 */
public final class Snapshots {

  private static final Logger log = LoggerFactory.getLogger(Snapshots.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;

  /** Snapshots in {@code directory}, created if missing. */
  public Snapshots(Path directory) {
    this.directory = directory;
  }

  /** One application's saved state. */
  record Application(List<ServiceInstance> instances, List<MetadataInfo> metadata) {}

  /** The file's form of an instance; application is the file's. */
  record SavedInstance(String host, int port, int weight, String revision) {}

  /** {@code named}: the revision is another system's name, not the services' hash ({@link MetadataInfo#named}). */
  record SavedRevision(String revision, List<ServerInfo.Service> services, boolean named) {}

  record SavedApplication(String application, List<SavedInstance> instances, List<SavedRevision> revisions) {}

  record SavedMapping(String service, Set<String> applications) {}

  void write(String application, List<ServiceInstance> instances, List<MetadataInfo> metadata) {
    List<SavedInstance> saved = new ArrayList<>(instances.size());
    for (ServiceInstance i : instances) {
      saved.add(new SavedInstance(i.host(), i.port(), i.weight(), i.revision()));
    }
    List<SavedRevision> revisions = new ArrayList<>();
    for (MetadataInfo info : metadata) {
      revisions.add(new SavedRevision(info.revision(), info.services(), !info.hashed()));
    }
    writeFile("app-" + fileName(application), new SavedApplication(application, saved, revisions));
  }

  Application read(String application) {
    SavedApplication saved = readFile("app-" + fileName(application), SavedApplication.class);
    if (saved == null) {
      return null;
    }
    if (saved.instances() == null || saved.revisions() == null) {
      // Valid JSON without the lists (hand-edited, or another program's file): not a snapshot.
      log.warn("Ignored the malformed registry snapshot of {}: it lacks its instances or revisions", application);
      return null;
    }
    List<ServiceInstance> instances = new ArrayList<>();
    for (SavedInstance i : saved.instances()) {
      try {
        instances.add(ServiceInstance.of(application, i.host(), i.port(), i.revision()).withWeight(i.weight()));
      } catch (RuntimeException e) {
        log.warn("Snapshot of {}: skipped a malformed instance {}: {}", application, i, e.getMessage());
      }
    }
    List<MetadataInfo> metadata = new ArrayList<>();
    for (SavedRevision r : saved.revisions()) {
      try {
        metadata.add(r.named()
            ? MetadataInfo.named(application, r.revision(), r.services())
            : MetadataInfo.restore(application, r.revision(), r.services()));
      } catch (RuntimeException e) {
        log.warn("Snapshot of {}: skipped metadata {}: {}", application, r.revision(), e.getMessage());
      }
    }
    return new Application(instances, metadata);
  }

  /** Saves which applications serve {@code service}. */
  public void writeMapping(String service, Set<String> applications) {
    writeFile("service-" + fileName(service), new SavedMapping(service, applications));
  }

  /** The applications saved for {@code service}, or null if none were. */
  public Set<String> readMapping(String service) {
    SavedMapping saved = readFile("service-" + fileName(service), SavedMapping.class);
    return saved == null ? null : saved.applications();
  }

  private static String fileName(String name) {
    StringBuilder safe = new StringBuilder(name.length() + 5);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      safe.append(Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_' ? c : '_');
    }
    // Names differing only in replaced characters must not share a file.
    return safe.append('-').append(Integer.toHexString(name.hashCode())).append(".json").toString();
  }

  private void writeFile(String name, Object value) {
    try {
      Files.createDirectories(directory);
      Path target = directory.resolve(name);
      Path temporary = Files.createTempFile(directory, name, ".tmp");
      try {
        JSON.writeValue(temporary.toFile(), value);
        try {
          Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException | RuntimeException e) {
      log.warn("Could not write the registry snapshot {} in {}: {}", name, directory, e.toString());
    }
  }

  private <T> T readFile(String name, Class<T> type) {
    Path file = directory.resolve(name);
    try {
      return JSON.readValue(file.toFile(), type);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      if (!Files.exists(file)) {
        return null;
      }
      log.warn("Ignored the unreadable registry snapshot {}: {}", file, e.toString());
      return null;
    }
  }
}
