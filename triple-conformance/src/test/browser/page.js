// Calls the Triple server named in the page's query (?server=...) through Connect and gRPC-Web with
// connect-web, as any browser application would, and writes what came back into #results as JSON.
// The service's descriptor comes from the page's origin (descriptor.bin, a FileDescriptorSet), so the
// page needs no generated code.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

async function run() {
  const server = new URLSearchParams(location.search).get("server");
  const descriptor = new Uint8Array(await (await fetch("descriptor.bin")).arrayBuffer());
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, descriptor));
  const greeter = registry.getService("triple.browser.v1.Greeter");
  const transports = {
    "connect": createConnectTransport({ baseUrl: server }),
    "connect-get": createConnectTransport({ baseUrl: server, useHttpGet: true }),
    "connect-proto": createConnectTransport({ baseUrl: server, useBinaryFormat: true }),
    "grpc-web": createGrpcWebTransport({ baseUrl: server }),
    "grpc-web-json": createGrpcWebTransport({ baseUrl: server, useBinaryFormat: false }),
  };
  const results = {};
  for (const [name, transport] of Object.entries(transports)) {
    const client = createClient(greeter, transport);
    const result = {};
    try {
      result.unary = (await client.greet({ name: "Ada" }, { headers: { "x-tenant": "blue" } })).message;
      result.stream = [];
      for await (const reply of client.greetMany({ name: "Grace", count: 3 })) {
        result.stream.push(reply.message);
      }
      try {
        await client.fail({ name: "Edsger" });
        result.error = "no error";
      } catch (e) {
        result.error = e.code + " " + e.rawMessage;
      }
    } catch (e) {
      result.failure = String(e);
    }
    results[name] = result;
  }
  document.getElementById("results").textContent = JSON.stringify(results);
  document.getElementById("done").hidden = false;
}

run().catch((e) => {
  document.getElementById("results").textContent = JSON.stringify({ failure: String(e) });
  document.getElementById("done").hidden = false;
});
