package io.triplerpc;

/**
 * The I/O that a client's or a server's event loops run on ({@link TransportBuilder#transport}). Each
 * native transport needs Linux and Netty's native library for the machine (triple-transport-netty brings
 * those of x86_64 and aarch64); where one cannot run, asking for it fails the client's {@code build()} or
 * the server's {@code start()} with the reason Netty gives.
 */
public enum Transport {

  /** io_uring where available, else epoll where available, else NIO: the fastest the machine allows. */
  AUTO,

  /**
   * Linux's io_uring: system calls submitted and completed through rings shared with the kernel. Missing
   * on older kernels, where {@code kernel.io_uring_disabled} is set, and in containers whose seccomp
   * profile refuses its system calls (Docker's default does).
   */
  IO_URING,

  /** Linux's epoll, the default where available. */
  EPOLL,

  /** Java's NIO selectors: everywhere, and the default where epoll is unavailable. */
  NIO
}
