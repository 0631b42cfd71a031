package io.triplerpc.transport.netty.rest;

import com.google.protobuf.Empty;
import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.transport.netty.rest.v1.ArchiveShelfRequest;
import io.triplerpc.transport.netty.rest.v1.ArchiveShelfResponse;
import io.triplerpc.transport.netty.rest.v1.Book;
import io.triplerpc.transport.netty.rest.v1.CreateBookRequest;
import io.triplerpc.transport.netty.rest.v1.Everything;
import io.triplerpc.transport.netty.rest.v1.FilesRequest;
import io.triplerpc.transport.netty.rest.v1.GetBookRequest;
import io.triplerpc.transport.netty.rest.v1.ListBooksRequest;
import io.triplerpc.transport.netty.rest.v1.ListBooksResponse;
import io.triplerpc.transport.netty.rest.v1.WatchShelfRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** BookService over books in memory, by name ({@code shelves/S/books/B}). */
final class Library implements BookService {

  final Map<String, Book> books = new ConcurrentSkipListMap<>();
  /** Calls that reached the service. */
  final AtomicInteger calls = new AtomicInteger();
  /** Books a WatchShelf call sent. */
  final AtomicInteger watched = new AtomicInteger();
  /** Counted down when a WatchShelf call found the stream not ready before it sent every book. */
  final CountDownLatch watchStalled = new CountDownLatch(1);
  /** Counted down when a WatchShelf call was cancelled. */
  final CountDownLatch watchCancelled = new CountDownLatch(1);

  @Override
  public Book getBook(GetBookRequest request) {
    calls.incrementAndGet();
    Book book = books.get(request.getName());
    if (book == null) {
      throw Status.NOT_FOUND.withDescription("No book " + request.getName()).asException();
    }
    return book;
  }

  @Override
  public ListBooksResponse listBooks(ListBooksRequest request) {
    calls.incrementAndGet();
    String prefix = request.getShelf().isEmpty() ? "" : "shelves/" + request.getShelf() + "/";
    List<Book> found = books.values().stream()
        .filter(book -> book.getName().startsWith(prefix))
        .filter(book -> request.getGenresList().isEmpty() || request.getGenresList().contains(book.getGenre()))
        .limit(request.getPageSize() > 0 ? request.getPageSize() : Long.MAX_VALUE)
        .toList();
    return ListBooksResponse.newBuilder().addAllBooks(found).build();
  }

  @Override
  public Book createBook(CreateBookRequest request) {
    calls.incrementAndGet();
    if (request.getBook().getTitle().isEmpty()) {
      throw Status.INVALID_ARGUMENT.withDescription("A book has a title").asException();
    }
    String name = "shelves/" + request.getShelf() + "/books/" + (books.size() + 1);
    Book book = request.getBook().toBuilder().setName(name).build();
    if (!request.getValidateOnly()) {
      books.put(name, book);
    }
    return book;
  }

  @Override
  public Book updateBook(Book book) {
    calls.incrementAndGet();
    if (!books.containsKey(book.getName())) {
      throw Status.NOT_FOUND.withDescription("No book " + book.getName()).asException();
    }
    books.put(book.getName(), book);
    return book;
  }

  @Override
  public Empty deleteBook(GetBookRequest request) {
    calls.incrementAndGet();
    if (books.remove(request.getName()) == null) {
      throw Status.NOT_FOUND.withDescription("No book " + request.getName()).asException();
    }
    return Empty.getDefaultInstance();
  }

  @Override
  public ArchiveShelfResponse archiveShelf(ArchiveShelfRequest request) {
    calls.incrementAndGet();
    String prefix = request.getName() + "/";
    List<Book> archived = books.values().stream().filter(book -> book.getName().startsWith(prefix)).toList();
    return ArchiveShelfResponse.newBuilder().addAllBooks(archived).setCount(archived.size()).build();
  }

  @Override
  public Everything inspect(Everything request) {
    calls.incrementAndGet();
    return request;
  }

  @Override
  public FilesRequest files(FilesRequest request) {
    calls.incrementAndGet();
    return request;
  }

  /** Sends {@code count} books while the stream is ready, resuming when it is ready again. */
  @Override
  public void watchShelf(WatchShelfRequest request, StreamObserver<Book> books) {
    calls.incrementAndGet();
    ServerCallStreamObserver<Book> stream = (ServerCallStreamObserver<Book>) books;
    String title = "t".repeat(request.getTitleSize());
    stream.setOnCancelHandler(watchCancelled::countDown);
    Runnable pump = new Runnable() {
      private int sent;

      @Override
      public synchronized void run() {
        while (sent < request.getCount() && stream.isReady() && !stream.isCancelled()) {
          sent++;
          watched.incrementAndGet();
          stream.onNext(Book.newBuilder().setName("shelves/" + request.getShelf() + "/books/" + sent)
              .setTitle(title).setPages(sent).build());
        }
        if (sent == request.getCount()) {
          sent++;
          stream.onCompleted();
        } else if (sent < request.getCount()) {
          watchStalled.countDown();
        }
      }
    };
    stream.setOnReadyHandler(pump);
    pump.run();
  }
}
