package source

import (
	"bufio"
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// The MySQL driver (go-sql-driver/mysql) cannot reset a session: its
// ResetSession only checks that the connection is alive. The server can:
// COM_RESET_CONNECTION (MariaDB 10.2.4, MySQL 5.7.3) clears everything a
// statement may leave in its session (user variables, GET_LOCK locks,
// temporary tables, prepared statements, session variables, the session's
// status counters, LAST_INSERT_ID) and keeps the login and the connection
// id. The driver does not send it, so the hardened pool dials the
// connections itself, keeps each one's socket beside the driver's
// connection (resettableConn), and writes the command there itself while
// the driver is idle: between two statements, after the first was read to
// its end, with a statement (sessionProbe) in the same write whose answer
// tells what the warmer needs of the reset session. A connection that is
// busy, or whose reset does not answer as expected, is closed instead. This needs the driver's bytes and the server's to be
// the protocol's own: no TLS, no compression.

// mysqlDriverConn is the method set of the driver's connection that
// database/sql uses; resettableConn passes it through.
type mysqlDriverConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	driver.NamedValueChecker
}

// resettableConn is a driver connection with its socket.
type resettableConn struct {
	mysqlDriverConn
	nc net.Conn
	// rd reads the answers to a reset (made at the first reset)
	rd *bufio.Reader
}

// dialedKey is the context key under which resetConnector.Connect
// receives the socket dialMySQL opened for it.
type dialedKey struct{}

// resetConnector opens resettableConns.
type resetConnector struct {
	driver.Connector
}

func (rc resetConnector) Connect(ctx context.Context) (driver.Conn, error) {
	var nc net.Conn
	c, err := rc.Connector.Connect(context.WithValue(ctx, dialedKey{}, &nc))
	if err != nil {
		return nil, err
	}
	mc, ok := c.(mysqlDriverConn)
	if !ok || nc == nil {
		c.Close()
		return nil, fmt.Errorf("unexpected MySQL driver connection %T", c)
	}
	return &resettableConn{mysqlDriverConn: mc, nc: nc}, nil
}

// dialMySQL is the driver's dial function for a resetting pool: it opens
// the socket as the driver would and hands it to resetConnector.
func dialMySQL(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if p, ok := ctx.Value(dialedKey{}).(*net.Conn); ok {
		*p = c
	}
	return c, nil
}

// sessionProbe is the statement sent with each reset, in the same write:
// it reads the session's id, so a reset that gave another session (a
// proxy between) is noticed before KILL QUERY is sent to that id, and
// whether the sql_mode the reset restored turns backslash escapes off
// (the guard's printer assumes them on). Being a SELECT of one row, it
// also leaves FOUND_ROWS(), which a reset keeps, at 1, as on a new
// connection. It holds no backslash, so it reads the same in any sql_mode.
const sessionProbe = "SELECT CONNECTION_ID(), FIND_IN_SET('NO_BACKSLASH_ESCAPES', @@SESSION.sql_mode)"

// resetPackets are COM_RESET_CONNECTION (a payload of one byte: 3-byte
// length 1, sequence 0, command 0x1f) and COM_QUERY of sessionProbe,
// written together: the server answers both in one round trip.
var resetPackets = func() []byte {
	b := []byte{1, 0, 0, 0, 0x1f}
	n := 1 + len(sessionProbe)
	b = append(b, byte(n), byte(n>>8), byte(n>>16), 0, 0x03)
	return append(b, sessionProbe...)
}()

// errNoReset reports a connection that could not be reset.
var errNoReset = errors.New("reset the MySQL session")

// resetSession is what the server says of a session it has just reset.
type resetSession struct {
	id int64
	// noBackslashEscapes: the session's sql_mode (the server's global
	// one, after a reset) has NO_BACKSLASH_ESCAPES.
	noBackslashEscapes bool
}

// reset sends COM_RESET_CONNECTION with sessionProbe and reads the
// server's answers. The driver must be idle: nothing unread, no statement
// running.
func (c *resettableConn) reset(ctx context.Context) (resetSession, error) {
	if !c.IsValid() {
		return resetSession{}, fmt.Errorf("%w: the connection is busy or closed", errNoReset)
	}
	dl := time.Now().Add(5 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	if err := c.nc.SetDeadline(dl); err != nil {
		return resetSession{}, fmt.Errorf("%w: %w", errNoReset, err)
	}
	if _, err := c.nc.Write(resetPackets); err != nil {
		return resetSession{}, fmt.Errorf("%w: %w", errNoReset, err)
	}
	if c.rd == nil {
		c.rd = bufio.NewReaderSize(c.nc, 512)
	}
	s, err := readReset(c.rd)
	if err != nil {
		return resetSession{}, fmt.Errorf("%w: %w", errNoReset, err)
	}
	if c.rd.Buffered() > 0 {
		// the server sent more than the two answers: the driver and the
		// server no longer agree on where the protocol stands
		return resetSession{}, fmt.Errorf("%w: %d unexpected bytes after the answers", errNoReset, c.rd.Buffered())
	}
	// the driver sets its own deadlines when configured to
	if err := c.nc.SetDeadline(time.Time{}); err != nil {
		return resetSession{}, fmt.Errorf("%w: %w", errNoReset, err)
	}
	return s, nil
}

// readReset reads the answers to resetPackets: the reset's OK packet,
// then sessionProbe's result (two columns, one row of text).
func readReset(r io.Reader) (resetSession, error) {
	p, err := readPacket(r, 1)
	if err != nil {
		return resetSession{}, err
	}
	if p[0] != 0x00 { // not OK: 0xff is an error packet (code, #state, message)
		return resetSession{}, fmt.Errorf("the server answered the reset with %q", p)
	}
	// the probe's answer: column count (and whether metadata follows),
	// two column definitions, an EOF
	// packet unless CLIENT_DEPRECATE_EOF was agreed, the row, then an EOF
	// or OK packet (0xfe) that ends the result
	seq := byte(1)
	next := func() ([]byte, error) {
		p, err := readPacket(r, seq)
		seq++
		if err == nil && p[0] == 0xff {
			err = fmt.Errorf("the server answered the probe with %q", p)
		}
		return p, err
	}
	if p, err = next(); err != nil {
		return resetSession{}, err
	}
	// a MariaDB server that caches metadata for the driver says after the
	// count whether column definitions follow
	if p[0] != 2 || len(p) > 2 || len(p) == 2 && p[1] > 1 {
		return resetSession{}, fmt.Errorf("the probe's answer begins %q, not two columns", p)
	}
	defs := 2
	if len(p) == 2 && p[1] == 0 {
		defs = 0
	}
	for range defs {
		if _, err := next(); err != nil {
			return resetSession{}, err
		}
	}
	if p, err = next(); err != nil {
		return resetSession{}, err
	}
	if p[0] == 0xfe && len(p) < 9 { // EOF after the column definitions
		if p, err = next(); err != nil {
			return resetSession{}, err
		}
	}
	id, rest, err := lenencInt(p)
	if err != nil {
		return resetSession{}, err
	}
	flag, rest, err := lenencInt(rest)
	if err != nil || len(rest) != 0 {
		return resetSession{}, fmt.Errorf("the probe's row %q is not two numbers", p)
	}
	if p, err = next(); err != nil {
		return resetSession{}, err
	}
	if p[0] != 0xfe {
		return resetSession{}, fmt.Errorf("the probe's answer has more than one row")
	}
	return resetSession{id: id, noBackslashEscapes: flag != 0}, nil
}

// readPacket reads one packet of at most 64 KiB, whose sequence number
// must be seq, and returns its payload.
func readPacket(r io.Reader, seq byte) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(h[:]) & 0xffffff)
	if h[3] != seq || n == 0 || n > 1<<16 {
		return nil, fmt.Errorf("unexpected packet (sequence %d, want %d, %d bytes)", h[3], seq, n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, err
	}
	return p, nil
}

// lenencInt reads a length-encoded string of decimal digits at the start
// of p (a column of a text row: one length byte, as the numbers are
// short) and returns its value and the rest of p.
func lenencInt(p []byte) (int64, []byte, error) {
	if len(p) == 0 || p[0] == 0 || int(p[0]) > 20 || len(p) < 1+int(p[0]) {
		return 0, nil, fmt.Errorf("the probe's row %q is not two numbers", p)
	}
	v, err := strconv.ParseInt(string(p[1:1+p[0]]), 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("the probe's row %q is not two numbers", p)
	}
	return v, p[1+p[0]:], nil
}
