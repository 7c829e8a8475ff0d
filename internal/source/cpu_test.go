package source_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// measured runs run b.N times and reports, besides the time and the
// allocations, the CPU time per statement of this process (client-µs/op,
// the warmer's goroutines included) and of the server processes server
// names (server-µs/op): on a machine shared with other work these move
// less than the wall time does. Linux only, from /proc, with the kernel's
// 10 ms ticks: run enough statements.
func measured(b *testing.B, server func() []string, run func()) {
	b.Helper()
	b.ReportAllocs()
	var pids []string
	if server != nil {
		pids = server()
	}
	c0, ok0 := procCPU("self")
	s0 := sumCPU(pids)
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.StopTimer()
	c1, ok1 := procCPU("self")
	s1 := sumCPU(pids)
	if !ok0 || !ok1 {
		return
	}
	b.ReportMetric(float64(c1-c0)/float64(b.N)/1e3, "client-µs/op")
	if len(pids) > 0 {
		b.ReportMetric(float64(s1-s0)/float64(b.N)/1e3, "server-µs/op")
	}
}

// processes returns the ids of the processes named (by their comm) one
// of names.
func processes(names ...string) []string {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []string
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join("/proc", d.Name(), "comm"))
		if err == nil && slices.Contains(names, strings.TrimSpace(string(comm))) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}

// sumCPU is the CPU time the processes pids have used.
func sumCPU(pids []string) time.Duration {
	var sum time.Duration
	for _, pid := range pids {
		t, _ := procCPU(pid)
		sum += t
	}
	return sum
}

// procCPU reads the user and system time of /proc/<pid>/stat, its
// waited-for children's included.
func procCPU(pid string) (time.Duration, bool) {
	raw, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, false
	}
	// the fields after the command, which may hold spaces, start at the
	// third: utime, stime, cutime and cstime are the 14th to 17th
	i := strings.LastIndexByte(string(raw), ')')
	f := strings.Fields(string(raw[i+1:]))
	if i < 0 || len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, true
}
