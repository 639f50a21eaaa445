package question

import (
	"context"
	"errors"
)

// Journal makes questions and their outcomes durable. The Broker calls Begin
// before anyone is told of a question and End before any waiter learns its
// outcome; when either fails, the Broker reports the error and changes nothing.
// The history store implements it.
type Journal interface {
	// Begin records q, which is pending. It blocks until the record is durable.
	Begin(ctx context.Context, q Question) error
	// End records how q ended. It blocks until the record is durable.
	End(ctx context.Context, q Question, r Result) error
}

// DecidedJournal is a Journal that can also record a question that was
// decided at ask time (by a rule) together with its outcome, in one durable
// commit instead of a Begin and an End. The Broker uses it when the Journal
// implements it.
type DecidedJournal interface {
	Journal
	// BeginEnded records q, which was never pending, with its result r. It
	// blocks until the record is durable.
	BeginEnded(ctx context.Context, q Question, r Result) error
}

// Lookup finds a question and, if it ended, its result. A Journal may also
// implement it; the Broker then answers Outcome for questions it no longer
// holds in memory.
type Lookup interface {
	Lookup(ctx context.Context, id string) (Question, *Result, error)
}

// Errors returned by the Broker and the validators.
var (
	ErrNotFound   = errors.New("no question with that id")
	ErrNotPending = errors.New("question is no longer pending")
	// ErrStillPending: what was asked of a question needs it ended.
	ErrStillPending = errors.New("question is still pending")
	ErrClosed       = errors.New("broker is closed")
)

// nopJournal keeps nothing; it serves a Broker made without a Journal.
type nopJournal struct{}

func (nopJournal) Begin(context.Context, Question) error       { return nil }
func (nopJournal) End(context.Context, Question, Result) error { return nil }

// Annotator is a Journal that can add to an ended question what was learnt
// of it afterwards (Result.Afterwards). The Broker uses it in Annotate when
// the Journal implements it.
type Annotator interface {
	// Annotate sets the Afterwards of the ended question id to after. It
	// fails, wrapping ErrNotFound, for an unknown id, and wrapping
	// ErrStillPending for a question that has not ended. It blocks until
	// the change is durable.
	Annotate(ctx context.Context, id string, after Reason) error
}
