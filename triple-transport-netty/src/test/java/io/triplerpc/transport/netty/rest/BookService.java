package io.triplerpc.transport.netty.rest;

import com.google.protobuf.Empty;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleService;
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

/** triple.resttest.BookService of rest.proto, whose google.api.http rules the server reads from the file. */
@TripleService(name = "triple.resttest.BookService")
public interface BookService {

  @TripleMethod(name = "GetBook")
  Book getBook(GetBookRequest request);

  @TripleMethod(name = "ListBooks")
  ListBooksResponse listBooks(ListBooksRequest request);

  @TripleMethod(name = "CreateBook")
  Book createBook(CreateBookRequest request);

  @TripleMethod(name = "UpdateBook")
  Book updateBook(Book book);

  @TripleMethod(name = "DeleteBook")
  Empty deleteBook(GetBookRequest request);

  @TripleMethod(name = "ArchiveShelf")
  ArchiveShelfResponse archiveShelf(ArchiveShelfRequest request);

  /** Answers the request it was given, so that a test sees how the path and query were bound. */
  @TripleMethod(name = "Inspect")
  Everything inspect(Everything request);

  @TripleMethod(name = "Files")
  FilesRequest files(FilesRequest request);

  @TripleMethod(name = "WatchShelf")
  void watchShelf(WatchShelfRequest request, StreamObserver<Book> books);
}
