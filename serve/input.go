package serve

import (
	"context"
	"io"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"golang.org/x/time/rate"
)

// What an attendee's client sends goes to Bubble Tea's input reader
// (ultraviolet), which holds back an escape sequence until it ends: an
// operating-system command (ESC ]), a device control string (ESC P) or an
// application command (ESC _, ESC ^, ESC X) ends with BEL or ESC \, a
// control sequence (ESC [) with a final byte, a bracketed paste with
// ESC [ 201 ~. A client that starts one and never ends it makes the
// reader keep everything it sends after, and scan all of it again on
// every read: a megabyte after "ESC ]" took the server to hundreds of
// MiB and a core. No terminal sends such a sequence longer than a few
// hundred bytes (a pasted text aside), so inputGuard ends any that runs
// past its bound, writing the end itself, and the reader then takes what
// follows as keys, a bounded cost per byte.
//
// It also paces the input: a person types a few keys a second, and a
// mouse moving over the window sends a few hundred bytes; a client that
// sends keys as fast as the connection takes them would keep one core
// busy on its session alone. Past inputBurst, the session takes
// inputPerSecond bytes a second, and the client's sends wait (the SSH
// channel's window fills).
const (
	inputPerSecond = 16 << 10
	inputBurst     = 64 << 10
)

const (
	// maxStringSeq bounds an OSC, DCS, APC, PM or SOS string.
	maxStringSeq = 4 << 10
	// maxCSI bounds a control sequence's parameters.
	maxCSI = 64
	// maxPaste bounds a bracketed paste: far more than any answer
	// the tutorial asks for (a file name, a name).
	maxPaste = 64 << 10
)

type inputState int

const (
	inText inputState = iota
	inEsc
	inCSI
	inString
	inStringEsc
	inPaste
)

// pasteEnd is what ends a bracketed paste.
const pasteEnd = "\x1b[201~"

// inputGuard is an attendee's input with every escape sequence bounded,
// paced.
type inputGuard struct {
	r     io.Reader
	ctx   context.Context
	pace  *rate.Limiter
	st    inputState
	n     int    // bytes in the sequence or paste so far
	csi   []byte // the control sequence's bytes after ESC [
	match int    // bytes of pasteEnd matched at the end of a paste
	buf   [4096]byte
	out   []byte
	err   error
}

// newInputGuard guards r, its reads paced until ctx ends.
func newInputGuard(ctx context.Context, r io.Reader) *inputGuard {
	g := unpacedGuard(r)
	g.ctx, g.pace = ctx, rate.NewLimiter(inputPerSecond, inputBurst)
	return g
}

// unpacedGuard guards r without pacing it (its bounds alone).
func unpacedGuard(r io.Reader) *inputGuard { return &inputGuard{r: r} }

func (g *inputGuard) Read(p []byte) (int, error) {
	for len(g.out) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		n, err := g.r.Read(g.buf[:])
		if g.pace != nil && n > 0 {
			if werr := g.pace.WaitN(g.ctx, n); werr != nil {
				return 0, io.EOF // the session has ended
			}
		}
		for _, b := range g.buf[:n] {
			g.feed(b)
		}
		g.err = err
	}
	k := copy(p, g.out)
	g.out = g.out[k:]
	return k, nil
}

// feed passes b on, after ending the sequence it would carry past its
// bound.
func (g *inputGuard) feed(b byte) {
	switch g.st {
	case inText:
		if b == 0x1b {
			g.st = inEsc
		}
	case inEsc:
		g.st = g.afterEsc(b)
	case inCSI:
		if b >= 0x40 && b <= 0x7e {
			g.st = inText
			if string(g.csi) == "200" && b == '~' {
				g.st, g.n, g.match = inPaste, 0, 0
			}
			break
		}
		g.csi = append(g.csi, b)
		if len(g.csi) > maxCSI {
			g.out = append(g.out, '~') // a final byte: an unknown sequence, ignored
			g.st = inText
			g.feed(b)
			return
		}
	case inString:
		switch b {
		case 0x07:
			g.st = inText
		case 0x1b:
			g.st = inStringEsc
		default:
			if g.n++; g.n > maxStringSeq {
				g.out = append(g.out, 0x07)
				g.st = inText
			}
		}
	case inStringEsc:
		if b == '\\' {
			g.st = inText // ST
			break
		}
		g.st = g.afterEsc(b) // the ESC began another sequence
	case inPaste:
		if b == pasteEnd[g.match] {
			if g.match++; g.match == len(pasteEnd) {
				g.st = inText
			}
			break
		}
		g.match = 0
		if b == pasteEnd[0] {
			g.match = 1
		}
		if g.n++; g.n > maxPaste {
			g.out = append(g.out, pasteEnd...)
			g.st = inText
			g.match = 0
			g.feed(b)
			return
		}
	}
	g.out = append(g.out, b)
}

// afterEsc is the state after ESC and b, with b already passed on.
func (g *inputGuard) afterEsc(b byte) inputState {
	switch b {
	case ']', 'P', '_', '^', 'X':
		g.n = 0
		return inString
	case '[':
		g.csi = g.csi[:0]
		return inCSI
	case 0x1b:
		return inEsc
	}
	return inText
}

// The session decodes its input itself and hands the program the events.
// Bubble Tea's reader decodes a read into events and hands them to the
// program's loop one by one without looking at its context: a program
// that ends (q, the connection gone) with events still to be handed
// leaves that goroutine blocked for ever, holding the session's
// connection and what it had buffered — every hostile "q and a paste"
// a leak. Here the events go through Program.Send, which returns at once
// once the program has ended, so the decoder drains and ends with its
// input. Bubble Tea's own reader is given noInput (its input stays on,
// for the queries it writes: the answers come back through Send).

// decodeInput reads in until it ends, handing each event to send, and
// returns once in has ended and every event has been handed on.
func decodeInput(ctx context.Context, in io.Reader, term string, send func(tea.Msg)) {
	events := make(chan uv.Event)
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		for ev := range events {
			send(ev) // Bubble Tea translates it, as it does its own reader's
		}
	}()
	_ = uv.NewTerminalReader(in, term).StreamEvents(ctx, events)
	close(events)
	<-forwarded
}

// noInput is a program's input that has nothing to say: it ends with
// ctx.
type noInput struct{ ctx context.Context }

func (n noInput) Read([]byte) (int, error) {
	<-n.ctx.Done()
	return 0, io.EOF
}
