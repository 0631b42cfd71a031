// Command gateway is grpc-gateway v2 in front of a gRPC server for the REST benchmark (scripts/bench-rest.sh):
// UserRestService of triple-benchmark/workload's user_rest_service.proto, with the default ServeMux options and
// one gRPC connection to the backend, as RegisterXHandlerFromEndpoint makes it. The versions in go.mod are
// those of the REST parity test's gateway (triple-interop-testing/src/test/go/gateway).
//
//	gateway -grpc 127.0.0.1:50051 -listen 127.0.0.1:0
//
// It prints "LISTENING <port>" once it listens, and runs until it is killed.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/triplerpc/triple/benchmark/gateway/workload"
)

func main() {
	target := flag.String("grpc", "", "host:port of the gRPC server")
	listen := flag.String("listen", "127.0.0.1:0", "host:port to serve HTTP/JSON on")
	flag.Parse()
	if *target == "" {
		log.Fatal("-grpc is required")
	}

	// The defaults, as a grpc-gateway user starts: the marshaler (protojson, EmitUnpopulated), the error
	// handlers and net/http's server with no timeouts.
	mux := runtime.NewServeMux()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if err := workload.RegisterUserRestServiceHandlerFromEndpoint(context.Background(), mux, *target, opts); err != nil {
		log.Fatalf("registering the handler: %v", err)
	}

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatalf("listening on %s: %v", *listen, err)
	}
	fmt.Printf("LISTENING %d\n", listener.Addr().(*net.TCPAddr).Port)
	log.Fatal(http.Serve(listener, mux))
}
