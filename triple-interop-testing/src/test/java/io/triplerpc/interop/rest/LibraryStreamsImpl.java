package io.triplerpc.interop.rest;

import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.interop.rest.v1.Book;
import io.triplerpc.interop.rest.v1.CoverResponse;
import io.triplerpc.interop.rest.v1.Genre;
import io.triplerpc.interop.rest.v1.LibraryStreams;
import io.triplerpc.interop.rest.v1.StreamBooksRequest;
import java.util.Locale;

/**
 * Streams the books a request asks for, and fails with the code it names after the number of them it names, so
 * that grpc-gateway's answer to a stream (an OK one, an empty one, one that fails mid-way or before its first
 * message) is compared with Triple's.
 */
final class LibraryStreamsImpl implements LibraryStreams {

  @Override
  public void streamBooks(StreamBooksRequest request, StreamObserver<Book> responses) {
    stream(request, responses, book -> book);
  }

  @Override
  public void streamCovers(StreamBooksRequest request, StreamObserver<CoverResponse> responses) {
    stream(request, responses, book -> CoverResponse.newBuilder().setBook(book).setEtag("not in the line").build());
  }

  private static <T> void stream(StreamBooksRequest request, StreamObserver<T> responses,
      java.util.function.Function<Book, T> answer) {
    for (int i = 1; i <= request.getCount(); i++) {
      if (!request.getFailCode().isEmpty() && i > request.getFailAfter()) {
        break;
      }
      responses.onNext(answer.apply(Book.newBuilder()
          .setName("shelves/" + request.getShelf() + "/books/" + i)
          .setGenre(Genre.forNumber(i % 4))
          .addTags("t" + i)
          .setPages(i * 100L)
          .build()));
    }
    if (request.getFailCode().isEmpty()) {
      responses.onCompleted();
      return;
    }
    Status status = Status.Code.valueOf(request.getFailCode().toUpperCase(Locale.ROOT)).toStatus();
    responses.onError(status.withDescription(request.getFailMessage()).asException());
  }
}
