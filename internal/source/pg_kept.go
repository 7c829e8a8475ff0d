package source

import (
	"container/list"
	"crypto/rand"
	"encoding/hex"
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

// pgKept is the set of statements one connection keeps prepared.
//
// Its names start with a prefix of its own, random: a pooler in
// transaction mode (PgBouncer before 1.21, or with max_prepared_statements
// 0) hands each transaction a session that other clients' transactions
// used too. Had two connections both named their first statement
// clarify_0, one connection's Bind could have run the other's text on a
// session both had used, and returned its rows as the answer; with names
// no other connection uses, a statement the session does not hold is an
// error (26000), which turns the pool pooled (stopKeeping, pg_pooled.go).
type pgKept struct {
	byText map[string]*list.Element // of the named *pgconn.StatementDescription, whose SQL is the text
	order  *list.List               // most recently used first
	prefix string                   // of every name, "clarify_" and 16 random hex digits
	next   int                      // the number of the next name
	reset  bool                     // the reset statement (resetName) is prepared
}

// keptOn returns pc's set, made on first use.
func keptOn(pc *pgconn.PgConn) *pgKept {
	if k := keptOf(pc); k != nil {
		return k
	}
	k := newKept()
	pc.CustomData()[pgKeptKey] = k
	return k
}

func newKept() *pgKept {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand's documentation)
	return &pgKept{byText: map[string]*list.Element{}, order: list.New(), prefix: "clarify_" + hex.EncodeToString(b[:]) + "_"}
}

// resetName is the name of the connection's reset statement (pgResetSQL),
// which ends every statement's batch.
func (k *pgKept) resetName() string { return k.prefix + "reset" }

// names are the names of every statement the set holds prepared, the
// reset statement's included.
func (k *pgKept) names() []string {
	var out []string
	if k.reset {
		out = append(out, k.resetName())
	}
	for e := k.order.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(*pgconn.StatementDescription).Name)
	}
	return out
}

// forgetKept drops pc's set: its statements are gone from the session.
func forgetKept(pc *pgconn.PgConn) {
	delete(pc.CustomData(), pgKeptKey)
}

// keptOf returns pc's set, or nil when it has none.
func keptOf(pc *pgconn.PgConn) *pgKept {
	k, _ := pc.CustomData()[pgKeptKey].(*pgKept)
	return k
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
	named.Name = k.prefix + strconv.Itoa(k.next)
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
