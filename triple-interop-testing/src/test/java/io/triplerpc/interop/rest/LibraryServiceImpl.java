package io.triplerpc.interop.rest;

import com.google.protobuf.Empty;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.interop.rest.v1.ArchiveShelfRequest;
import io.triplerpc.interop.rest.v1.Book;
import io.triplerpc.interop.rest.v1.CoverResponse;
import io.triplerpc.interop.rest.v1.CreateBookRequest;
import io.triplerpc.interop.rest.v1.DeleteBookRequest;
import io.triplerpc.interop.rest.v1.Echo;
import io.triplerpc.interop.rest.v1.FailRequest;
import io.triplerpc.interop.rest.v1.Genre;
import io.triplerpc.interop.rest.v1.GetAuthorRequest;
import io.triplerpc.interop.rest.v1.GetBookRequest;
import io.triplerpc.interop.rest.v1.GetCoverRequest;
import io.triplerpc.interop.rest.v1.GetShelfRequest;
import io.triplerpc.interop.rest.v1.LibraryService;
import io.triplerpc.interop.rest.v1.ListBooksRequest;
import io.triplerpc.interop.rest.v1.ListBooksResponse;
import io.triplerpc.interop.rest.v1.ReadFileRequest;
import io.triplerpc.interop.rest.v1.ReplaceBookRequest;
import io.triplerpc.interop.rest.v1.Scalars;
import io.triplerpc.interop.rest.v1.UpdateBookRequest;
import java.util.Locale;

/**
 * Answers every call with what it received (an {@link Echo} holding the request), so that a difference in how
 * a transcoder binds the path, the query and the body shows in the JSON; fails with a chosen status when the
 * request asks for one, so that the mapping of gRPC codes to HTTP answers is compared too.
 */
final class LibraryServiceImpl implements LibraryService {

  @Override
  public Echo getShelf(GetShelfRequest request) {
    if (request.getShelf() == 503) {
      throw error(Status.UNAVAILABLE, "shelf 503 is being restocked");
    }
    return Echo.newBuilder().setMethod("GetShelf").setGetShelf(request).build();
  }

  @Override
  public Echo getBook(GetBookRequest request) {
    if (request.getName().endsWith("/books/404")) {
      throw error(Status.NOT_FOUND, "book " + request.getName() + " not found");
    }
    return Echo.newBuilder().setMethod("GetBook").setGetBook(request).build();
  }

  @Override
  public Echo getAuthor(GetAuthorRequest request) {
    if (request.getAuthor().getName().equals("anonymous")) {
      throw error(Status.PERMISSION_DENIED, "anonymous authors are not listed");
    }
    return Echo.newBuilder().setMethod("GetAuthor").setGetAuthor(request).build();
  }

  @Override
  public Echo readFile(ReadFileRequest request) {
    if (request.getPath().contains("..")) {
      throw error(Status.INVALID_ARGUMENT, "path must not contain '..': " + request.getPath());
    }
    return Echo.newBuilder().setMethod("ReadFile").setReadFile(request).build();
  }

  @Override
  public Echo search(Scalars request) {
    return Echo.newBuilder().setMethod("Search").setSearch(request).build();
  }

  @Override
  public Echo archiveShelf(ArchiveShelfRequest request) {
    if (request.getReason().isEmpty() && !request.getForce()) {
      throw error(Status.FAILED_PRECONDITION, "a reason is required unless force is set");
    }
    return Echo.newBuilder().setMethod("ArchiveShelf").setArchiveShelf(request).build();
  }

  @Override
  public Echo createBook(CreateBookRequest request) {
    if (request.getBook().getTitle().isEmpty()) {
      throw error(Status.INVALID_ARGUMENT, "book.title is required");
    }
    if (request.getBookId().equals("taken")) {
      throw error(Status.ALREADY_EXISTS, "book taken already exists in " + request.getParent());
    }
    return Echo.newBuilder().setMethod("CreateBook").setCreateBook(request).build();
  }

  @Override
  public Echo replaceBook(ReplaceBookRequest request) {
    if (request.getEtag().equals("stale")) {
      throw error(Status.ABORTED, "etag stale does not match");
    }
    return Echo.newBuilder().setMethod("ReplaceBook").setReplaceBook(request).build();
  }

  @Override
  public Echo updateBook(UpdateBookRequest request) {
    return Echo.newBuilder().setMethod("UpdateBook").setUpdateBook(request).build();
  }

  @Override
  public Empty deleteBook(DeleteBookRequest request) {
    if (request.getName().startsWith("shelves/locked/")) {
      throw error(Status.PERMISSION_DENIED, "shelf locked is read-only");
    }
    return Empty.getDefaultInstance();
  }

  @Override
  public CoverResponse getCover(GetCoverRequest request) {
    Book cover = Book.newBuilder().setName(request.getName()).setTitle("cover").setPages(request.getSize()).build();
    return CoverResponse.newBuilder().setBook(cover).setEtag("not in the HTTP body").build();
  }

  @Override
  public ListBooksResponse listBooks(ListBooksRequest request) {
    if (request.getPageSize() < 0) {
      throw error(Status.OUT_OF_RANGE, "page_size must not be negative");
    }
    ListBooksResponse.Builder response = ListBooksResponse.newBuilder().setNextPageToken("not in the HTTP body");
    for (int i = 1; i <= request.getPageSize(); i++) {
      response.addBooks(Book.newBuilder()
          .setName(request.getParent() + "/books/" + i)
          .setGenre(Genre.forNumber(i % 4))
          .addTags("t" + i));
    }
    return response.build();
  }

  @Override
  public Empty checkBook(GetBookRequest request) {
    if (request.getName().endsWith("/books/404")) {
      throw error(Status.NOT_FOUND, "book " + request.getName() + " not found");
    }
    return Empty.getDefaultInstance();
  }

  /** Fails with the code named (or numbered) in the request and its message; answers for OK. */
  @Override
  public Echo fail(FailRequest request) {
    Status status;
    try {
      status = request.getCode().chars().allMatch(Character::isDigit) && !request.getCode().isEmpty()
          ? Status.fromCodeValue(Integer.parseInt(request.getCode()))
          : Status.Code.valueOf(request.getCode().toUpperCase(Locale.ROOT)).toStatus();
    } catch (IllegalArgumentException e) {
      throw error(Status.INVALID_ARGUMENT, "no gRPC code " + request.getCode());
    }
    if (status.isOk()) {
      return Echo.newBuilder().setMethod("Fail").build();
    }
    throw error(status, request.getMessage());
  }

  private static StatusException error(Status status, String message) {
    return status.withDescription(message).asException();
  }
}
