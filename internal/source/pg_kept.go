package source

import (
	"container/list"
	"strconv"

	"github.com/jackc/pgx/v5/pgconn"
)

// A PostgreSQL connection of the execution pool keeps the statements it
// ran as named prepared statements, so that a text it runs again is
// neither parsed nor, after the server's first few custom plans, planned
// again: for a statement reading three rows by key that was a third of
// the server's time.
//
// The set lives with the connection (pgconn's CustomData), is used by
// one statement at a time (database/sql hands a connection to one
// caller), and is forgotten whenever something may have deallocated
// its statements (pgRecover's DISCARD ALL).

// maxKept bounds the statements one connection keeps; past it the one
// used least recently is deallocated in the same round trip. Each kept
// statement costs the server its parse tree and plan, and the reset
// check (pgResetSQL) reads every prepared statement of the session.
const maxKept = 32

// pgKeptKey is the CustomData key of a connection's set.
const pgKeptKey = "clarify.kept"

// pgResetName is the kept statement that ends every statement's batch
// (pgResetSQL).
const pgResetName = "clarify_reset"

// pgKept is the set of statements one connection keeps prepared.
type pgKept struct {
	byText map[string]*list.Element // of the named *pgconn.StatementDescription, whose SQL is the text
	order  *list.List               // most recently used first
	next   int                      // the number of the next name
	reset  bool                     // pgResetName is prepared
}

// keptOn returns pc's set, made on first use.
func keptOn(pc *pgconn.PgConn) *pgKept {
	data := pc.CustomData()
	if k, ok := data[pgKeptKey].(*pgKept); ok {
		return k
	}
	k := newKept()
	data[pgKeptKey] = k
	return k
}

func newKept() *pgKept {
	return &pgKept{byText: map[string]*list.Element{}, order: list.New()}
}

// forgetKept drops pc's set: its statements are gone from the session.
func forgetKept(pc *pgconn.PgConn) {
	delete(pc.CustomData(), pgKeptKey)
}

// keptPlan is what one statement's batch does to the set: run a kept
// statement, or prepare a new one (and deallocate the oldest). It takes
// effect only when the batch ended cleanly (commit).
type keptPlan struct {
	sd      *pgconn.StatementDescription // the named statement to run
	prepare bool                         // sd is to be prepared in the batch
	evict   string                       // a name to deallocate, or ""
}

// plan returns how to run text, described as described (the pool's
// description, unnamed), on this connection.
func (k *pgKept) plan(text string, described *pgconn.StatementDescription) keptPlan {
	if e, ok := k.byText[text]; ok {
		return keptPlan{sd: e.Value.(*pgconn.StatementDescription)}
	}
	named := *described
	named.Name = "clarify_" + strconv.Itoa(k.next)
	named.SQL = text
	p := keptPlan{sd: &named, prepare: true}
	if k.order.Len() >= maxKept {
		p.evict = k.order.Back().Value.(*pgconn.StatementDescription).Name
	}
	return p
}

// commit records a plan whose batch ended cleanly.
func (k *pgKept) commit(p keptPlan) {
	k.reset = true
	if !p.prepare {
		k.order.MoveToFront(k.byText[p.sd.SQL])
		return
	}
	if p.evict != "" {
		old := k.order.Remove(k.order.Back()).(*pgconn.StatementDescription)
		delete(k.byText, old.SQL)
	}
	k.next++
	k.byText[p.sd.SQL] = k.order.PushFront(p.sd)
}

// sameShape reports whether a statement prepared on this connection
// describes the same parameters and columns as the pool's description the
// batch was built from (a table changed in between would not).
func sameShape(a, b *pgconn.StatementDescription) bool {
	if len(a.ParamOIDs) != len(b.ParamOIDs) || len(a.Fields) != len(b.Fields) {
		return false
	}
	for i := range a.ParamOIDs {
		if a.ParamOIDs[i] != b.ParamOIDs[i] {
			return false
		}
	}
	for i := range a.Fields {
		if a.Fields[i].DataTypeOID != b.Fields[i].DataTypeOID || a.Fields[i].Name != b.Fields[i].Name {
			return false
		}
	}
	return true
}
