package store

import (
	"context"
	"errors"
	"time"
)

// Errors callers check with errors.Is.
var (
	// ErrNotFound: no such conversation (or it belongs to another user —
	// callers never reveal which).
	ErrNotFound = errors.New("not found")
	// ErrConflict: the conversation changed since it was read.
	ErrConflict = errors.New("conversation changed concurrently")
	// ErrLocked: CreateLocked found another owner's lease on the id.
	ErrLocked = errors.New("conversation is locked by another owner")
)

// Conversation statuses.
const (
	StatusActive    = "active"
	StatusAwaiting  = "awaiting_clarification"
	StatusAnswered  = "answered"
	StatusFailed    = "failed"
	StatusAbandoned = "abandoned"
)

// Conversation is one question and its clarifications, as persisted.
type Conversation struct {
	ID          string
	UserID      string
	Source      string
	Question    string
	Status      string
	Interactive bool
	// State is JSON owned by package conversation: the answers given so
	// far, rounds, the pending clarification, the last outcome, turns.
	State []byte
	// Statement is the statement of the last answer ("" while there is
	// none), kept beside State so that a list of conversations need not
	// read every state; package conversation sets it with State.
	Statement string
	// Messages counts the messages received (questions and answers).
	Messages  int
	CreatedAt time.Time
	UpdatedAt time.Time
	// ExpiresAt is when an unanswered clarification expires.
	ExpiresAt time.Time
	// Version increases with every update; an update of a stale copy fails
	// with ErrConflict.
	Version int64
}

// Summary is a conversation as a list shows it, without its state.
type Summary struct {
	ID        string
	Source    string
	Question  string
	Status    string
	Statement string
	CreatedAt time.Time
	UpdatedAt time.Time
	ExpiresAt time.Time
}

// Cursor is the place of a conversation in a list of a user's
// conversations, newest first; the zero Cursor is the start of the list.
type Cursor struct {
	CreatedAt time.Time
	ID        string
}

// IsZero reports whether c is the start of a list.
func (c Cursor) IsZero() bool { return c.CreatedAt.IsZero() && c.ID == "" }

// CursorOf returns the place of s in its list: a list continued after it
// starts with the next older conversation.
func CursorOf(s Summary) Cursor { return Cursor{CreatedAt: s.CreatedAt, ID: s.ID} }

// Event is one entry of a conversation's append-only event log: what an
// SSE client receives (id = Seq, event = Type, data = Data).
type Event struct {
	ConversationID string
	Seq            int64 // 1, 2, 3… per conversation, assigned by the store
	Type           string
	Data           []byte // JSON
	At             time.Time
}

// Save is one change of a conversation with what goes with it, which
// SaveConversation writes in one transaction: a turn's outcome with its
// query log record and the release of its lease, or a user's answer with
// the conversation it moves on.
type Save struct {
	// Conversation is written as UpdateConversation writes it.
	Conversation *Conversation
	// Events are appended to its event log.
	Events []Event
	// Answer, when set, is recorded as RecordAnswer records it.
	Answer *Answer
	// Query, when set, is appended to the query log as LogQuery appends it.
	Query *QueryRecord
	// Audit, when set, is appended to the audit log as AppendAudit
	// appends it: a turn's outcome is committed with its audit record.
	Audit *AuditRecord
	// Unlock, when set, releases that owner's lease on the conversation,
	// as Unlock does.
	Unlock string
	// Lock, when set, first takes that owner's lease on the conversation
	// for LockTTL, as Lock does: a message saved with the lease its turn
	// then runs under, in one transaction instead of two. Another owner's
	// unexpired lease fails the write with ErrLocked, and nothing is
	// written.
	Lock    string
	LockTTL time.Duration
}

// Head is what a follower needs to know of a conversation to tell whether
// it moved on: the seq of its newest event and its status.
type Head struct {
	LastSeq int64
	Status  string
}

// Answer is one reply a user gave to a clarification about a slot.
type Answer struct {
	UserID string
	Source string
	Slot   string
	// Value is the canonical answer: "opt:" + an option id, or "text:" +
	// free text.
	Value    string
	Remember bool
	// Kind is the kind of the clarification answered (vague_qualifier,
	// unknown_term…; "" in answers recorded before it was kept).
	Kind string
	// BestGuess is the id of the option the clarification offered as its
	// best guess, without "opt:"; "" when it offered none.
	BestGuess string
	At        time.Time
}

// Preference is what a user usually answers for a slot of a source.
type Preference struct {
	UserID string
	Source string
	Slot   string
	Value  string
	// Remember is set when the user asked to remember Value.
	Remember bool
	// Count is how many times the user gave Value (since last forgotten).
	Count     int
	UpdatedAt time.Time
}

// Learned is what a turn reads of its user.
type Learned struct {
	// NeverAsk is the user's "never ask me" switch.
	NeverAsk bool
	// Preferences are the user's preferences for the source.
	Preferences []Preference
}

// QueryRecord is one entry of the query log: one finished turn.
type QueryRecord struct {
	ConversationID string
	UserID         string
	Source         string
	Question       string
	SQL            string
	Status         string // answered, needs_clarification, failed
	ErrorCode      string
	DurationMS     float64
	Rows           int
	Turns          int
	Clarifications int
	Assumptions    int
	// Unknown are the content words of the question that linked to
	// nothing in the model (nil when none, or not known).
	Unknown []string
	At      time.Time
}

// Stats summarise conversations and the query log since a time.
//
// The conversation figures count the conversations created at or after
// since, by their status now. The store counts a question each time a
// conversation enters awaiting_clarification (on creation or from another
// status; a re-save while awaiting does not count): one per round of
// questions, so one per question with the default of one question per turn.
// The rates are the caller's to compute from these counts (for instance
// clarification rate = Clarified/Conversations, auto-resolution rate =
// AutoResolved/Answered, mean questions per answered question =
// QuestionsAsked/Answered).
type Stats struct {
	// Conversations: created at or after since.
	Conversations int `json:"conversations"`
	// Clarified: conversations in which at least one question was asked.
	Clarified int `json:"clarified"`
	// Answered, Abandoned, Failed: conversations whose status is that now.
	Answered  int `json:"answered"`
	Abandoned int `json:"abandoned"`
	Failed    int `json:"failed"`
	// AutoResolved: answered conversations in which nothing was asked.
	AutoResolved int `json:"auto_resolved"`
	// QuestionsAsked: clarifications asked in answered conversations.
	QuestionsAsked int `json:"questions_asked"`
	// P50MS and P99MS are nearest-rank percentiles of DurationMS over the
	// query log records with At at or after since: the value at rank
	// ceil(p·n) of the n durations sorted ascending; 0 when n is 0.
	P50MS float64 `json:"latency_p50_ms"`
	P99MS float64 `json:"latency_p99_ms"`
}

// Store is everything Clarify persists. Implementations are safe for
// concurrent use by many goroutines and, for PostgreSQL, many processes.
type Store interface {
	// CreateConversation inserts a conversation with its first events, in
	// one transaction; Version becomes 1 and the events get seq 1, 2, ….
	// An id already taken fails with ErrExists.
	CreateConversation(ctx context.Context, c *Conversation, events ...Event) ([]Event, error)
	// Conversation reads one conversation, or ErrNotFound.
	Conversation(ctx context.Context, id string) (*Conversation, error)
	// CreateLocked is CreateConversation that also takes owner's lease on
	// the conversation for ttl (as Lock does), in the same transaction;
	// another owner's lease on the id fails with ErrLocked.
	CreateLocked(ctx context.Context, c *Conversation, owner string, ttl time.Duration, events ...Event) ([]Event, error)
	// UpdateConversation writes c if its Version is still current (else
	// ErrConflict) and appends events, in one transaction; on success
	// c.Version is incremented and the stored events (with seq) returned.
	UpdateConversation(ctx context.Context, c *Conversation, events ...Event) ([]Event, error)
	// SaveConversation is UpdateConversation of w.Conversation and
	// w.Events that also writes the rest of w, all in one transaction:
	// when any part fails nothing is written.
	SaveConversation(ctx context.Context, w Save) ([]Event, error)
	// Heads returns the Head of each conversation of ids that exists, in
	// one read (what one follower per instance polls for all the streams
	// it serves).
	Heads(ctx context.Context, ids []string) (map[string]Head, error)
	// DeleteConversation removes a conversation and its events and lock,
	// or returns ErrNotFound.
	DeleteConversation(ctx context.Context, id string) error
	// Events returns the events of a conversation with Seq > after, in order
	// (none when nothing is new), or ErrNotFound.
	Events(ctx context.Context, id string, after int64) ([]Event, error)
	// Conversations lists a user's conversations, newest first (by
	// CreatedAt, then ID, both descending): at most limit, and only those
	// after the cursor when it is not zero. Another user's are never listed.
	Conversations(ctx context.Context, userID string, after Cursor, limit int) ([]Summary, error)
	// ExpireConversations marks conversations awaiting a clarification past
	// their ExpiresAt (ExpiresAt before now; a zero ExpiresAt never expires)
	// as abandoned and returns how many. Each one's Version increases.
	ExpireConversations(ctx context.Context, now time.Time) (int, error)
	// DeleteOlderThan removes the conversations last updated before before,
	// with their events, leases and query log rows, and returns how many
	// conversations it removed. Active conversations and those under an
	// unexpired lease are kept, however old.
	DeleteOlderThan(ctx context.Context, before time.Time) (int, error)

	// Lock takes a conversation's lease for owner until now+ttl; it returns
	// false when another owner holds an unexpired lease. Re-locking by the
	// same owner extends the lease. Leases hold across processes. The
	// conversation need not exist.
	Lock(ctx context.Context, id, owner string, ttl time.Duration) (bool, error)
	// Renew extends owner's lease to now+ttl if owner still holds it (even
	// past its expiry, when nobody took it meanwhile); it returns false
	// when the lease was released or taken by another owner, so a
	// heartbeat never takes back a lease it lost.
	Renew(ctx context.Context, id, owner string, ttl time.Duration) (bool, error)
	// Unlock releases owner's lease (no error if it is not held).
	Unlock(ctx context.Context, id, owner string) error

	// RecordAnswer stores a reply; Remember marks it as the user's choice.
	RecordAnswer(ctx context.Context, a Answer) error
	// Preferences returns, for each slot of a source (all sources when
	// source is ""), the remembered value if any, else the most frequent
	// value with its count; ties go to the most recent.
	Preferences(ctx context.Context, userID, source string) ([]Preference, error)
	// Learned returns what a turn reads of its user, in one read: the
	// "never ask me" switch, and the preferences Preferences returns.
	Learned(ctx context.Context, userID, source string) (Learned, error)
	// ForgetPreference drops a user's answers and remembered value for a
	// slot, so it is asked again.
	ForgetPreference(ctx context.Context, userID, source, slot string) error
	// SetNeverAsk and NeverAsk hold the user's "never ask me" switch.
	SetNeverAsk(ctx context.Context, userID string, never bool) error
	NeverAsk(ctx context.Context, userID string) (bool, error)

	// LogQuery appends to the query log.
	LogQuery(ctx context.Context, r QueryRecord) error
	// QueryLog returns the query log records of a source (every source
	// when source is "") with At at or after since, oldest first.
	QueryLog(ctx context.Context, source string, since time.Time) ([]QueryRecord, error)
	// Answers returns every user's replies about a source (every source
	// when source is "") with At at or after since, oldest first.
	Answers(ctx context.Context, source string, since time.Time) ([]Answer, error)
	// Stats summarises conversations and queries since a time.
	// user limits them to one user's conversations and queries ("" for
	// every user's).
	Stats(ctx context.Context, since time.Time, user string) (Stats, error)

	// AppendAudit appends to the audit log; see AuditRecord. The audit log
	// is append-only: the store offers no update of a record, and no delete
	// but DeleteAuditBefore (PostgreSQL and SQLite triggers refuse others).
	AppendAudit(ctx context.Context, r AuditRecord) error
	// Audit returns the audit records f selects, newest first.
	Audit(ctx context.Context, f AuditFilter) ([]AuditRecord, error)
	// DeleteAuditBefore removes the audit records with At before before
	// (the audit log's own retention) and returns how many.
	// DeleteConversation and DeleteOlderThan never touch the audit log.
	DeleteAuditBefore(ctx context.Context, before time.Time) (int, error)

	// Ping checks the store is reachable (for /readyz).
	Ping(ctx context.Context) error
	Close() error
}

// Notifier is implemented by the stores that announce new events as they
// are committed (PostgreSQL, with LISTEN/NOTIFY), so that a follower need
// not poll Heads as often.
type Notifier interface {
	// Listen calls changed with the id of each conversation that has new
	// events, written by any process, until ctx ends or the connection it
	// listens on fails (it then returns the error; notifications sent
	// meanwhile are lost, so the caller polls Heads before it listens
	// again). ready is called once it listens: what is committed after
	// that is announced.
	Listen(ctx context.Context, ready func(), changed func(id string)) error
}
