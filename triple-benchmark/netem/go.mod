module triplerpc.io/benchmark/netem

go 1.21
