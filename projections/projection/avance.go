package projection

import (
	"context"
	"slices"
	"sync"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/integrity"
	"arbitre/projections/feed"
)

// Avance is the read-ahead and the decoding the live runners of one
// pipeline share: every runner handles the same message in turn, and the
// events stored from its position on are read once for all of them rather
// than once per projection (issue 17); the runners apply the stored event
// at the message's position, which the message is checked to be, once
// (conforme), rather than the message's word for it. The events read are
// decoded once each, the first time a runner's Batcher reads its payload
// (issue 34), and every runner is handed that decoding.
// A runner may be handed a page another read a moment before, which is a
// prefix of what the log holds now: the events after it come as messages.
// On a chained store it checks the link of each event it hands with the
// chain once for all the runners (enchainer), and each runner only
// compares its checkpoint's hash with the one the link was checked
// against (issue 34: every live runner hashed every event it applied).
type Avance struct {
	store    eventstore.Reader
	registry *eventstore.Registry
	chained  bool
	mu       sync.Mutex
	apres    uint64
	page     []Decoded
	lu       bool
	// dernier is the last event the read-ahead handed or read, whose
	// stored hash the link of the event after it is checked against.
	dernier struct {
		position uint64
		hash     []byte
		vu       bool
	}
	// message is the last message a runner was handed, and ecart why it
	// is not the stored event at its position (conforme), nil when it is.
	message *feed.Livraison
	ecart   error
}

// NewAvance returns the read-ahead shared by the runners following store,
// decoding their payloads with registry.
func NewAvance(store eventstore.Reader, registry *eventstore.Registry) *Avance {
	_, chained := store.(integrity.Chained)
	return &Avance{store: store, registry: registry, chained: chained}
}

// lire returns the events stored from the one at l's position, the
// message every runner is handed, at most limit of them, with the payloads
// d's users read decoded: the stored events, not the message's, are what
// the runners apply, and the message must be the stored event at its
// position (conforme), checked once for all of them (a Pub/Sub other than
// the in-process gochannel could alter a message, hash included). They
// are the rest of the last page read after l's previous position when it
// is that page's start or one of its events and the rest is not empty
// (runners follow the same burst at their own pace), else a new read,
// which the runners after it wait for: one read a message or a burst, as
// the read-ahead after the message did. Each runner gets its own copy of
// the page's decodings, which later runners complete.
func (a *Avance) lire(ctx context.Context, l *feed.Livraison, limit int, d decodeur) ([]Decoded, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	suite, ok := a.suite(l.Previous)
	if !ok || len(suite) == 0 {
		page, err := a.store.ReadAllAfter(ctx, l.Previous, limit)
		if err != nil {
			return nil, err
		}
		a.apres, a.page, a.lu = l.Previous, nonDecodes(page), true
		a.enchainer(l.Previous, a.page)
		suite = a.page
	}
	if a.message != l {
		a.message, a.ecart = l, conforme(l, suite)
	}
	if a.ecart != nil {
		return nil, a.ecart
	}
	suite = suite[:min(limit, len(suite))]
	d.registry = a.registry
	for i := range suite {
		d.completer(&suite[i])
	}
	return slices.Clone(suite), nil
}

// suite is what the last page read holds after position apres.
func (a *Avance) suite(apres uint64) ([]Decoded, bool) {
	if !a.lu {
		return nil, false
	}
	if apres == a.apres {
		return a.page, true
	}
	for i, e := range a.page {
		if e.Position == apres {
			return a.page[i+1:], true
		}
	}
	return nil, false
}

// enchainer checks the links of events, stored after position apres, with
// the chain, once for every runner: the first against the last event the
// read-ahead saw when it is the one at apres, each next one against the
// event before it. An event whose link holds is marked
// (Decoded.lienVerifie): a runner whose checkpoint holds the hash it was
// checked against does not hash it again (applyTx). One whose link breaks, or the first when the
// read-ahead did not see the event before it, is left to each runner to
// check against its checkpoint: an altered event stops every runner right
// before it.
func (a *Avance) enchainer(apres uint64, events []Decoded) {
	if !a.chained || len(events) == 0 {
		return
	}
	precedent, connu := a.dernier.hash, a.dernier.vu && a.dernier.position == apres
	for i := range events {
		e := &events[i]
		if connu && verifierLien(precedent, e.Event) == nil {
			e.lienVerifie, e.precedent = true, precedent
		}
		precedent, connu = e.Hash, true
	}
	dernier := events[len(events)-1]
	a.dernier.position, a.dernier.hash, a.dernier.vu = dernier.Position, dernier.Hash, true
}
