package ui

import "github.com/asktray/asktray/app/question"

// noteOp is one queued notifier call: show a question, or dismiss the
// notification of question dismiss.
type noteOp struct {
	show    *question.Question
	quiet   bool       // show: the question waits behind an open dialog
	ruled   *ruledNote // a rule's decision: shown, never dismissed
	dismiss string
}

// start runs the notifier's one worker goroutine, which makes the queued
// show and dismiss calls one at a time, in the order they were queued: a
// dismiss queued right after its show runs once the show has recorded the
// notification's id, so a question that ends at once leaves no stale
// notification behind. Call it once, before queueing; close joins the
// worker. It does not block.
func (n *notifier) start() {
	n.wake, n.done = make(chan struct{}, 1), make(chan struct{})
	go n.work()
}

// queueShow queues showing a notification of q. It never blocks (a D-Bus
// call may take a moment; the Fyne goroutine must not wait for it) and any
// goroutine may call it.
func (n *notifier) queueShow(q question.Question) { n.enqueue(noteOp{show: &q}) }

// queueShowQuiet queues a quiet notification of q, which waits behind an
// open dialog: low urgency and no sound, so that it tells without
// interrupting. It never blocks and any goroutine may call it.
func (n *notifier) queueShowQuiet(q question.Question) { n.enqueue(noteOp{show: &q, quiet: true}) }

// queueDismiss queues removing the notification of question id. It never
// blocks and any goroutine may call it.
func (n *notifier) queueDismiss(id string) { n.enqueue(noteOp{dismiss: id}) }

func (n *notifier) enqueue(op noteOp) {
	n.qmu.Lock()
	if n.stopping {
		n.qmu.Unlock()
		return
	}
	n.ops = append(n.ops, op)
	n.qmu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// work runs the queued calls in order until stop; then it makes the
// dismisses still queued, skips the shows, and returns.
func (n *notifier) work() {
	defer close(n.done)
	for {
		n.qmu.Lock()
		ops, stopping := n.ops, n.stopping
		n.ops = nil
		n.qmu.Unlock()
		if len(ops) == 0 {
			if stopping {
				return
			}
			<-n.wake
			continue
		}
		for _, op := range ops {
			switch {
			case op.ruled != nil:
				if !stopping {
					n.showRuled(*op.ruled)
				}
			case op.show == nil:
				n.dismiss(op.dismiss)
			case !stopping:
				n.show(*op.show, op.quiet)
			}
		}
	}
}

// stop refuses further calls and waits for the worker to finish the
// queue. It blocks for as long as the queued D-Bus calls take; any
// goroutine may call it, more than once.
func (n *notifier) stop() {
	if n.done == nil {
		return // never started
	}
	n.qmu.Lock()
	n.stopping = true
	n.qmu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
	<-n.done
}
