package source

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
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
// its end. A connection that is busy, or whose reset does not answer OK,
// is closed instead. This needs the driver's bytes and the server's to be
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

// comResetConnection is the COM_RESET_CONNECTION packet: a payload of one
// byte (3-byte length 1), sequence 0, command 0x1f.
var comResetConnection = []byte{1, 0, 0, 0, 0x1f}

// errNoReset reports a connection that could not be reset.
var errNoReset = errors.New("reset the MySQL session")

// reset sends COM_RESET_CONNECTION and reads the server's answer. The
// driver must be idle: nothing unread, no statement running.
func (c *resettableConn) reset(ctx context.Context) error {
	if !c.IsValid() {
		return fmt.Errorf("%w: the connection is busy or closed", errNoReset)
	}
	dl := time.Now().Add(5 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(dl) {
		dl = d
	}
	if err := c.nc.SetDeadline(dl); err != nil {
		return fmt.Errorf("%w: %w", errNoReset, err)
	}
	if _, err := c.nc.Write(comResetConnection); err != nil {
		return fmt.Errorf("%w: %w", errNoReset, err)
	}
	var h [4]byte
	if _, err := io.ReadFull(c.nc, h[:]); err != nil {
		return fmt.Errorf("%w: %w", errNoReset, err)
	}
	n := int(binary.LittleEndian.Uint32(h[:]) & 0xffffff)
	if h[3] != 1 || n == 0 || n > 1<<16 {
		return fmt.Errorf("%w: unexpected packet (sequence %d, %d bytes)", errNoReset, h[3], n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(c.nc, p); err != nil {
		return fmt.Errorf("%w: %w", errNoReset, err)
	}
	if p[0] != 0x00 { // not OK: 0xff is an error packet (code, #state, message)
		return fmt.Errorf("%w: the server answered %q", errNoReset, p)
	}
	// the driver sets its own deadlines when configured to
	if err := c.nc.SetDeadline(time.Time{}); err != nil {
		return fmt.Errorf("%w: %w", errNoReset, err)
	}
	return nil
}
