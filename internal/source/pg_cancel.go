package source

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// pgCancel ends a canceled PostgreSQL statement with a cancel request, as
// pgx's CancelRequestContextWatcherHandler does, but lets the request
// finish: pgx's handler closes the request's socket as soon as the
// statement has ended, often before a pooler in front of the server has
// passed the request on, and PgBouncer 1.18 then frees that client twice
// and exits ("FATAL … disconnect_client(): bad client state: 0", PgBouncer
// issue #801), taking every client of the pooler with it: 3 times in 3
// runs of TestPoolerSurvivesCancels with pgx's handler, and once in a CI
// run of the change that brought PgBouncer into the tests. The statement's end waits for the request instead (a
// round trip to the server, or to the pooler and on to the server,
// bounded by delay), then 100 ms more, as pgx's handler does, so that the
// request cannot reach the statement the connection runs next.
type pgCancel struct {
	conn *pgconn.PgConn
	// delay bounds how long the statement may take to end: past it the
	// connection is dropped
	delay time.Duration
	// done is closed when the request HandleCancel sent has ended
	done chan struct{}
}

// pgCancelDelay is how long a canceled statement may take to end before
// its connection is dropped.
const pgCancelDelay = 2 * time.Second

// HandleCancel sends the cancel request; pgx calls it when the statement's
// context is canceled.
func (h *pgCancel) HandleCancel(context.Context) {
	deadline := time.Now().Add(h.delay)
	h.conn.Conn().SetDeadline(deadline) //nolint:errcheck // a closed connection fails the statement either way
	h.done = make(chan struct{})
	go func() {
		defer close(h.done)
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		defer cancel()
		if h.conn.CancelRequest(ctx) == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}()
}

// HandleUnwatchAfterCancel waits for the request HandleCancel sent; pgx
// calls it once the statement has ended, which makes it the owner of that
// goroutine.
func (h *pgCancel) HandleUnwatchAfterCancel() {
	<-h.done
	h.conn.Conn().SetDeadline(time.Time{}) //nolint:errcheck // as in pgx's own handlers
}
