package source_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// stallProxy forwards TCP connections to a server until stall, after
// which the connections open at that moment no longer pass on what the
// server sends: a server, or a network, that stopped answering.
type stallProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	mute   []*bool
	wg     sync.WaitGroup
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		muted := new(bool)
		p.mu.Lock()
		p.conns, p.mute = append(p.conns, c, s), append(p.mute, muted)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() {
			defer p.wg.Done()
			_, _ = io.Copy(s, c)
		}()
		go func() {
			defer p.wg.Done()
			buf := make([]byte, 4096)
			for {
				n, err := s.Read(buf)
				p.mu.Lock()
				pass := !*muted
				p.mu.Unlock()
				if pass && n > 0 {
					if _, err := c.Write(buf[:n]); err != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// stall mutes the server side of every connection open now.
func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.mute {
		*m = true
	}
}

func (p *stallProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// TestMySQLCancelWithoutAnswer: a statement whose caller gives up returns
// at once even when the server's answer never comes. The driver is not
// given the caller's context on the hardened path (exec_mysql.go), so the
// path itself must break the connection: without that, this statement
// would wait for ever.
func TestMySQLCancelWithoutAnswer(t *testing.T) {
	admin, ns, dsn := testdb.MySQLDatabase(t, "t_stall")
	mustExec(t, admin, "CREATE TABLE "+ns+".items (id int PRIMARY KEY)")
	open, close := strings.Index(dsn, "tcp("), strings.Index(dsn, ")/")
	if open < 0 || close < open {
		t.Fatalf("the test DSN %q names no TCP address", dsn)
	}
	proxy := newStallProxy(t, dsn[open+4:close])
	src, err := source.Open(context.Background(), "t", dsn[:open+4]+proxy.ln.Addr().String()+dsn[close:], testModelT(t), source.Options{QueryTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	// a first statement opens the pool; its connection, reset, is ready
	// again for the next, as are the warmer's
	if _, err := src.Query(context.Background(), "SELECT COUNT(*) FROM "+ns+".items", nil, 0); err != nil {
		t.Fatal(err)
	}
	proxy.stall()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := src.Query(ctx, "SELECT 1", nil, 0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a statement whose answer never came succeeded")
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the canceled statement still waits for the server 15 s later")
	}
}
