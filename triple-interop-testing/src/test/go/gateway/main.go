// Command gateway is grpc-gateway v2 in front of a gRPC server, with the default ServeMux options:
// the reference that Triple's own REST transcoding is compared with (GrpcGatewayParityTest).
//
//	gateway -grpc 127.0.0.1:50051 -listen 127.0.0.1:0
//
// It prints the port it listens on as one line on stdout, and exits when its stdin closes, so that it
// never outlives the test that started it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	restv1 "github.com/triplerpc/triple/interop/gateway/restv1"
)

func main() {
	target := flag.String("grpc", "", "host:port of the gRPC server")
	listen := flag.String("listen", "127.0.0.1:0", "host:port to serve HTTP/JSON on")
	flag.Parse()
	if *target == "" {
		log.Fatal("-grpc is required")
	}

	// The defaults are the point: no ServeMuxOption, so the marshaler, the error handler, the routing error
	// handler and the path unescaping mode are grpc-gateway's own.
	mux := runtime.NewServeMux()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if err := restv1.RegisterLibraryServiceHandlerFromEndpoint(context.Background(), mux, *target, opts); err != nil {
		log.Fatalf("registering the handler: %v", err)
	}
	if err := restv1.RegisterLibraryStreamsHandlerFromEndpoint(context.Background(), mux, *target, opts); err != nil {
		log.Fatalf("registering the streams' handler: %v", err)
	}

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("listening on %s: %v", *listen, err)
	}
	fmt.Println(listener.Addr().(*net.TCPAddr).Port)

	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	log.Fatal(http.Serve(listener, mux))
}
