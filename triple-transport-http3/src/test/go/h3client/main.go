// Command h3client calls a Triple server over HTTP/3 with connect-go on quic-go's http3.Transport, in
// gRPC and in Connect: unary, server streaming, bidi, an error and a large message, on the service
// triple.http3.Echo (Http3QuicGoInteropTest serves it). The messages are protobuf's well-known wrappers,
// so no code is generated.
//
//	h3client -addr 127.0.0.1:8443 -ca ca.pem
//
// It prints one line per case, "ok <protocol> <case>" or "FAIL <protocol> <case>: <why>", and exits 1 if a
// case failed.
//
// With -serve it is the server instead: connect-go handlers of the same service (gRPC, gRPC-Web and
// Connect) on quic-go's http3.Server, for Triple's client to call (Http3QuicGoServerTest).
//
//	h3client -serve -addr 127.0.0.1:0 -cert server.pem -key server.key
//
// It prints "listening <port>" once the UDP socket is bound, and serves until it is killed.
package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

const service = "/triple.http3.Echo/"

// largeSize is the large case's message: about 4 MiB, above gRPC's usual default limit of 4 MiB.
const largeSize = 4<<20 + 1024

func main() {
	addr := flag.String("addr", "", "host:port of the server's UDP port (with -serve: the UDP address to serve on)")
	caFile := flag.String("ca", "", "PEM file of the CA that signed the server's certificate")
	serveMode := flag.Bool("serve", false, "serve triple.http3.Echo over HTTP/3 instead of calling it")
	certFile := flag.String("cert", "", "with -serve: PEM certificate chain of the server")
	keyFile := flag.String("key", "", "with -serve: PEM private key of the server")
	flag.Parse()
	if *serveMode {
		os.Exit(serve(*addr, *certFile, *keyFile))
	}
	if *addr == "" || *caFile == "" {
		fmt.Fprintln(os.Stderr, "-addr and -ca are required")
		os.Exit(2)
	}
	caPem, err := os.ReadFile(*caFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(caPem) {
		fmt.Fprintln(os.Stderr, "no certificate in", *caFile)
		os.Exit(2)
	}
	transport := &http3.Transport{
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"},
		QUICConfig:      &quic.Config{MaxIdleTimeout: 30 * time.Second},
	}
	defer transport.Close()
	client := &http.Client{Transport: transport}
	base := "https://" + *addr

	failed := false
	protocols := []struct {
		name   string
		option connect.ClientOption
	}{
		{"grpc", connect.WithGRPC()},
		{"connect", connect.WithProtoJSON()},
	}
	for _, protocol := range protocols {
		for _, c := range cases {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			err := c.run(ctx, client, base, protocol.option)
			cancel()
			if err != nil {
				failed = true
				fmt.Printf("FAIL %s %s: %v\n", protocol.name, c.name, err)
			} else {
				fmt.Printf("ok %s %s\n", protocol.name, c.name)
			}
		}
	}
	if failed {
		os.Exit(1)
	}
}

var cases = []struct {
	name string
	run  func(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error
}{
	{"unary", unary},
	{"server-streaming", serverStreaming},
	{"bidi", bidi},
	{"error", errorStatus},
	{"large", large},
}

func unary(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error {
	c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](client, base+service+"Unary", option)
	response, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.String("quic")))
	if err != nil {
		return err
	}
	if got := response.Msg.GetValue(); got != "echo quic" {
		return fmt.Errorf("got %q, want %q", got, "echo quic")
	}
	return nil
}

func serverStreaming(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error {
	c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](client, base+service+"ServerStream", option)
	stream, err := c.CallServerStream(ctx, connect.NewRequest(wrapperspb.String("5")))
	if err != nil {
		return err
	}
	var got []string
	for stream.Receive() {
		got = append(got, stream.Msg().GetValue())
	}
	if err := stream.Err(); err != nil {
		return err
	}
	if want := "0,1,2,3,4"; strings.Join(got, ",") != want {
		return fmt.Errorf("got %v, want %s", got, want)
	}
	return stream.Close()
}

func bidi(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error {
	c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](client, base+service+"Bidi", option)
	stream := c.CallBidiStream(ctx)
	// Each answer is read before the next request goes: the exchange is full duplex.
	for _, word := range []string{"a", "b", "c"} {
		if err := stream.Send(wrapperspb.String(word)); err != nil {
			return fmt.Errorf("send %s: %w", word, err)
		}
		answer, err := stream.Receive()
		if err != nil {
			return fmt.Errorf("receive after %s: %w", word, err)
		}
		if answer.GetValue() != "echo "+word {
			return fmt.Errorf("got %q after %s", answer.GetValue(), word)
		}
	}
	if err := stream.CloseRequest(); err != nil {
		return err
	}
	if _, err := stream.Receive(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("want the end of the responses, got %v", err)
	}
	return stream.CloseResponse()
}

func errorStatus(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error {
	c := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](client, base+service+"Fail", option)
	_, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.String("no such thing")))
	var connectErr *connect.Error
	if !errors.As(err, &connectErr) {
		return fmt.Errorf("want a status, got %v", err)
	}
	if connectErr.Code() != connect.CodeNotFound || connectErr.Message() != "no such thing" {
		return fmt.Errorf("got %v %q, want not_found %q", connectErr.Code(), connectErr.Message(), "no such thing")
	}
	return nil
}

func large(ctx context.Context, client *http.Client, base string, option connect.ClientOption) error {
	c := connect.NewClient[wrapperspb.BytesValue, wrapperspb.BytesValue](client, base+service+"Large", option,
		connect.WithReadMaxBytes(16<<20))
	payload := bytes.Repeat([]byte("0123456789abcdef"), largeSize/16)
	response, err := c.CallUnary(ctx, connect.NewRequest(wrapperspb.Bytes(payload)))
	if err != nil {
		return err
	}
	got := response.Msg.GetValue()
	if len(got) != len(payload) || !bytes.Equal(got, bytes.ToUpper(payload)) {
		return fmt.Errorf("got %d bytes back, want the %d sent in upper case", len(got), len(payload))
	}
	return nil
}

// serve serves triple.http3.Echo over HTTP/3 on addr until the process is killed; it returns an exit code
// only if it cannot start.
func serve(addr, certFile, keyFile string) int {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	mux := http.NewServeMux()
	mux.Handle(service+"Unary", connect.NewUnaryHandler(service+"Unary",
		func(ctx context.Context, r *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			return connect.NewResponse(wrapperspb.String("echo " + r.Msg.GetValue())), nil
		}))
	mux.Handle(service+"ServerStream", connect.NewServerStreamHandler(service+"ServerStream",
		func(ctx context.Context, r *connect.Request[wrapperspb.StringValue], s *connect.ServerStream[wrapperspb.StringValue]) error {
			n, err := strconv.Atoi(r.Msg.GetValue())
			if err != nil {
				return connect.NewError(connect.CodeInvalidArgument, err)
			}
			for i := 0; i < n; i++ {
				if err := s.Send(wrapperspb.String(strconv.Itoa(i))); err != nil {
					return err
				}
			}
			return nil
		}))
	mux.Handle(service+"Bidi", connect.NewBidiStreamHandler(service+"Bidi",
		func(ctx context.Context, s *connect.BidiStream[wrapperspb.StringValue, wrapperspb.StringValue]) error {
			for {
				m, err := s.Receive()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return err
				}
				if err := s.Send(wrapperspb.String("echo " + m.GetValue())); err != nil {
					return err
				}
			}
		}))
	mux.Handle(service+"Fail", connect.NewUnaryHandler(service+"Fail",
		func(ctx context.Context, r *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
			return nil, connect.NewError(connect.CodeNotFound, errors.New(r.Msg.GetValue()))
		}))
	mux.Handle(service+"Large", connect.NewUnaryHandler(service+"Large",
		func(ctx context.Context, r *connect.Request[wrapperspb.BytesValue]) (*connect.Response[wrapperspb.BytesValue], error) {
			return connect.NewResponse(wrapperspb.Bytes(bytes.ToUpper(r.Msg.GetValue()))), nil
		}, connect.WithReadMaxBytes(16<<20)))
	conn, err := net.ListenPacket("udp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	server := &http3.Server{
		Handler:   mux,
		TLSConfig: http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{cert}}),
	}
	fmt.Printf("listening %d\n", conn.LocalAddr().(*net.UDPAddr).Port)
	if err := server.Serve(conn); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
