package sqliteauth

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	sqlite "modernc.org/sqlite"
)

// Func decides, inside SQLite and while a statement is compiled, whether
// one of its actions is allowed: reading a column of a table (arg1 the
// table, arg2 the column), calling a function (arg2 its name), and so on.
type Func = func(action sqlite.AuthorizerActionCode, arg1, arg2, arg3, arg4 string) sqlite.AuthorizerReturnCode

// ErrNoAuthorizer is returned for a driver connection that cannot take an
// authorizer: a driver other than modernc.org/sqlite.
var ErrNoAuthorizer = errors.New("the SQLite driver has no authorizer")

// Connector opens SQLite connections with Authorize installed on each
// before the pool may use it.
type Connector struct {
	driver.Connector
	// Authorize is the authorizer of every connection.
	Authorize Func
	// Setup are statements each new connection runs before the authorizer
	// is installed, so they are not subject to it (the verifier's shadow
	// schema in an in-memory database, which lives as long as the
	// connection).
	Setup []string
}

// Connect opens a connection, runs Setup on it and installs Authorize; a
// connection that fails any of these is closed.
func (c Connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.prepare(ctx, dc); err != nil {
		dc.Close()
		return nil, err
	}
	return dc, nil
}

func (c Connector) prepare(ctx context.Context, dc driver.Conn) error {
	if len(c.Setup) > 0 {
		ex, ok := dc.(driver.ExecerContext)
		if !ok {
			return errors.New("the SQLite driver cannot execute")
		}
		for _, s := range c.Setup {
			if _, err := ex.ExecContext(ctx, s, nil); err != nil {
				return fmt.Errorf("set up SQLite connection: %w", err)
			}
		}
	}
	return Install(dc, c.Authorize)
}

// Install makes fn the authorizer of dc, a connection of the
// modernc.org/sqlite driver; (*sql.Conn).Raw hands it over to reassert the
// authorizer before a statement runs.
func Install(dc any, fn Func) error {
	reg, ok := dc.(sqlite.AuthorizerRegisterer)
	if !ok {
		return ErrNoAuthorizer
	}
	if err := reg.RegisterAuthorizer(fn); err != nil {
		return fmt.Errorf("install SQLite authorizer: %w", err)
	}
	return nil
}
