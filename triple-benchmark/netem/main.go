// Command netem relays IP packets between two TUN devices, delaying each by a fixed time and dropping a share
// of them at random, as the kernel's netem qdisc would: a lossy, long link for the loss benchmark
// (scripts/bench-loss.sh) on machines whose kernel has no netem. The devices must exist (ip tuntap add ...
// mode tun); the relay attaches to both before the script moves them into the client's and the server's
// network namespaces, and it keeps them after the move.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

const (
	tunSetIff = 0x400454ca // TUNSETIFF
	iffTun    = 0x0001
	iffNoPi   = 0x1000
)

// direction counts what one way of the link saw.
type direction struct {
	name    string
	packets atomic.Int64
	dropped atomic.Int64
}

func openTun(name string) (*os.File, error) {
	fd, err := syscall.Open("/dev/net/tun", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open /dev/net/tun: %w", err)
	}
	var request [40]byte // struct ifreq: the name, then the flags
	copy(request[:16], name)
	binary.LittleEndian.PutUint16(request[16:], iffTun|iffNoPi)
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), tunSetIff, uintptr(unsafe.Pointer(&request[0]))); errno != 0 {
		syscall.Close(fd)
		return nil, fmt.Errorf("attach to %s: %w", name, errno)
	}
	return os.NewFile(uintptr(fd), name), nil
}

type packet struct {
	bytes []byte
	due   time.Time
}

// relay reads packets from one device and writes them to the other once their delay has passed, in order,
// dropping each with probability loss.
func relay(from, to *os.File, delay time.Duration, loss float64, rng *rand.Rand, counts *direction) {
	queue := make(chan packet, 1<<16)
	go func() {
		for p := range queue {
			if wait := time.Until(p.due); wait > 0 {
				time.Sleep(wait)
			}
			if _, err := to.Write(p.bytes); err != nil {
				fmt.Fprintf(os.Stderr, "netem: %s: write: %v\n", counts.name, err)
			}
		}
	}()
	buffer := make([]byte, 1<<16)
	for {
		n, err := from.Read(buffer)
		if err != nil {
			fmt.Fprintf(os.Stderr, "netem: %s: read: %v\n", counts.name, err)
			close(queue)
			return
		}
		counts.packets.Add(1)
		if loss > 0 && rng.Float64() < loss {
			counts.dropped.Add(1)
			continue
		}
		bytes := make([]byte, n)
		copy(bytes, buffer[:n])
		queue <- packet{bytes, time.Now().Add(delay)}
	}
}

func main() {
	a := flag.String("a", "netemA", "the first TUN device")
	b := flag.String("b", "netemB", "the second TUN device")
	delay := flag.Duration("delay", 10*time.Millisecond, "the one-way delay")
	loss := flag.Float64("loss", 0, "the share of packets dropped each way, 0 to 1")
	seed := flag.Int64("seed", 1, "the seed of the drops")
	flag.Parse()
	if *loss < 0 || *loss >= 1 {
		fmt.Fprintln(os.Stderr, "netem: -loss must be in [0, 1)")
		os.Exit(2)
	}
	devA, err := openTun(*a)
	if err != nil {
		fmt.Fprintln(os.Stderr, "netem:", err)
		os.Exit(1)
	}
	devB, err := openTun(*b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "netem:", err)
		os.Exit(1)
	}
	ab := &direction{name: *a + "->" + *b}
	ba := &direction{name: *b + "->" + *a}
	go relay(devA, devB, *delay, *loss, rand.New(rand.NewSource(*seed)), ab)
	go relay(devB, devA, *delay, *loss, rand.New(rand.NewSource(*seed+1)), ba)
	fmt.Printf("READY delay=%s loss=%g\n", *delay, *loss)
	done := make(chan os.Signal, 1)
	signal.Notify(done, syscall.SIGTERM, syscall.SIGINT)
	<-done
	for _, d := range []*direction{ab, ba} {
		fmt.Printf("%s packets=%d dropped=%d\n", d.name, d.packets.Load(), d.dropped.Load())
	}
}
