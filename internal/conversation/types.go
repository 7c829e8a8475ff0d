package conversation

import (
	"errors"
	"fmt"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/understand"
)

// internalMessage is what a failed turn shows when its error carries no
// safe message of its own.
const internalMessage = "something went wrong with this question; it was logged so it can be fixed"

// sourceError classifies the failure to get a source's engine: a name that
// is not configured (the error has an UnknownSource method that says so) or
// a configured source that cannot be opened now.
func sourceError(name string, err error) *apperr.Error {
	var u interface{ UnknownSource() bool }
	if errors.As(err, &u) && u.UnknownSource() {
		return &apperr.Error{Code: apperr.CodeUnknownSource, Message: fmt.Sprintf("unknown source %q", name), Err: err}
	}
	return &apperr.Error{Code: apperr.CodeSourceUnavailable, Message: fmt.Sprintf("the source %q cannot be reached; try again later", name), Err: err}
}

func forbiddenSource(name string) *apperr.Error {
	return &apperr.Error{Code: apperr.CodeSourceForbidden, Message: fmt.Sprintf("you may not use the source %q; ask an administrator for access", name)}
}

// Ask starts a conversation.
type Ask struct {
	Question string `json:"question"`
	Source   string `json:"source,omitempty"`
	// Interactive and EnableClarification default to true; either false
	// answers at once with assumptions.
	Interactive         *bool `json:"interactive,omitempty"`
	EnableClarification *bool `json:"enable_clarification,omitempty"`
	// AskScope asks whose data the question is about even when nothing
	// else is asked (not interactive, or the user's "never ask me"),
	// instead of failing with SCOPE_REQUIRED.
	AskScope bool `json:"ask_scope,omitempty"`
	// Engine answers the conversation's turns: rules, llm or hybrid
	// (default: the source's). Follow-ups keep it.
	Engine string `json:"engine,omitempty"`
}

// Message continues a conversation: an answer to its clarification, or
// text (a follow-up, or an answer typed as text).
type Message struct {
	Answer *Answer `json:"answer,omitempty"`
	Text   string  `json:"text,omitempty"`
}

// Answer replies to a clarification.
type Answer struct {
	ClarificationID string `json:"clarification_id"`
	OptionID        string `json:"option_id,omitempty"`
	FreeText        string `json:"free_text,omitempty"`
	Skipped         bool   `json:"skipped,omitempty"`
	Remember        bool   `json:"remember,omitempty"`
}

// Result is the outcome of a turn, in the shapes of docs/api.md.
type Result struct {
	ConversationID string                `json:"conversation_id"`
	Status         string                `json:"status"`
	Clarification  *engine.Clarification `json:"clarification,omitempty"`
	Understood     *engine.Understood    `json:"understood,omitempty"`
	Assumptions    []clarify.Assumption  `json:"assumptions,omitempty"`
	Answer         *engine.Answer        `json:"answer,omitempty"`
	Error          *ErrorBody            `json:"error,omitempty"`
}

// ErrorBody is the JSON of an error.
type ErrorBody struct {
	Code    apperr.Code `json:"code"`
	Message string      `json:"message"`
}

// View is a conversation as GET returns it.
type View struct {
	ConversationID string `json:"conversation_id"`
	Status         string `json:"status"`
	Question       string `json:"question"`
	Source         string `json:"source"`
	// Engine is the engine the conversation asked for ("" = the source's
	// configured one), so a reopened conversation shows it.
	Engine     string                `json:"engine,omitempty"`
	Pending    *engine.Clarification `json:"pending_clarification,omitempty"`
	LastAnswer *engine.Answer        `json:"last_answer,omitempty"`
	Turns      []Turn                `json:"turns"`
	CreatedAt  time.Time             `json:"created_at"`
	UpdatedAt  time.Time             `json:"updated_at"`
	ExpiresAt  *time.Time            `json:"expires_at,omitempty"`
}

// Turn is one exchange of a conversation.
type Turn struct {
	At   time.Time `json:"at"`
	Role string    `json:"role"` // user | assistant
	// Kind: question, answer, text, change (user); clarification, answer, error (assistant).
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// state is what the service keeps in store.Conversation.State.
type state struct {
	Resolved map[string]resolution `json:"resolved"`
	Rounds   int                   `json:"rounds"`
	Pending  *engine.Clarification `json:"pending,omitempty"`
	LastSeq  int64                 `json:"last_seq"`
	// Last is the last turn's outcome without its answer, which is kept
	// once, in the "result" event LastAnswer names: the state is written
	// and read with every message, the answer with its rows is the bulk
	// of it. A state written before LastAnswer existed holds the answer
	// here.
	Last       *Result    `json:"last,omitempty"`
	LastAnswer *answerRef `json:"last_answer,omitempty"`
	Turns      []Turn     `json:"turns"`
	Asked      int        `json:"asked"`
	// AnswerNow marks a started turn that must answer, not ask (a changed
	// assumption), so that a resumed turn does the same.
	AnswerNow bool `json:"answer_now,omitempty"`
	// AskScope asks a missing scope in every mode (Ask.AskScope).
	AskScope bool `json:"ask_scope,omitempty"`
	// Engine is the engine asked for when the conversation started (Ask.Engine).
	Engine string `json:"engine,omitempty"`
}

// answerRef names a conversation's last answer, kept in its "result"
// event.
type answerRef struct {
	// Seq is the "result" event's.
	Seq int64 `json:"seq"`
	// Statement is the answer's statement, which the conversation's row
	// holds too (its history lists it).
	Statement string `json:"statement,omitempty"`
}

type resolution struct {
	OptionID string `json:"option_id,omitempty"`
	FreeText string `json:"free_text,omitempty"`
	Skipped  bool   `json:"skipped,omitempty"`
}

func (r resolution) understand() understand.Resolution {
	return understand.Resolution{OptionID: r.OptionID, FreeText: r.FreeText, Skipped: r.Skipped}
}

// Preference is a remembered or usual answer, as the API lists it.
type Preference struct {
	Key      string    `json:"key"` // source + "/" + slot
	Source   string    `json:"source"`
	Slot     string    `json:"slot"`
	Value    string    `json:"value"`
	Remember bool      `json:"remember"`
	Count    int       `json:"count"`
	Applied  bool      `json:"applied"` // applied without asking next time
	Updated  time.Time `json:"updated_at"`

	// SlotLabel says for people what the choice is about (“large”, "Time
	// period") and Label what was chosen ("Area > 10 cm²"), read from the
	// source's model, so that no one has to read ids.
	SlotLabel string `json:"slot_label"`
	Label     string `json:"label"`
}
