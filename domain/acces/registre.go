package acces

import (
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// Habilitation is what an authenticated request may do.
type Habilitation struct {
	JetonID string
	Role    Role
	Tournoi string
	Tables  Tables
	Expire  time.Time
	// Centre is the centre a centre's token speaks for.
	Centre string
	// Libelle names the holder, for people.
	Libelle string
	// Emetteur is the id of the token that issued this one (empty: the
	// command line).
	Emetteur string
}

// Registre holds the valid tokens, fed with the access events in log order.
// It is safe for concurrent use: the server authenticates while the store
// subscription applies new events.
type Registre struct {
	mu      sync.RWMutex
	parEmp  map[string]Habilitation
	empDeID map[string]string
	// revoques holds the fingerprints of revoked tokens, to say so.
	revoques map[string]bool
	// position is the global position of the last access event of the log
	// taken into account (0 for a registry fed by hand).
	position uint64
	// ecarts are the events of the log the registry could not decode.
	ecarts []Ecart
	// enfants are the ids of the tokens each token issued, by its id: they
	// are revoked with it.
	enfants map[string][]string
	// veilles are the contexts to end when a token is revoked, by token id.
	veilles map[string]map[*veille]struct{}
	// registry decodes the log's events and lecture is the runner that
	// follows the log for the registry; set by Brancher.
	registry *eventstore.Registry
	lecture  Lecture
}

type veille struct{ cancel context.CancelCauseFunc }

// NewRegistre returns an empty registry.
func NewRegistre() *Registre {
	return &Registre{parEmp: map[string]Habilitation{}, empDeID: map[string]string{}, revoques: map[string]bool{},
		enfants: map[string][]string{}, veilles: map[string]map[*veille]struct{}{}}
}

// Appliquer takes one access event (JetonEmis or JetonRevoque); other
// payloads are ignored.
func (r *Registre) Appliquer(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.appliquer(ev)
}

// appliquer is Appliquer with r.mu held.
func (r *Registre) appliquer(ev any) {
	switch e := ev.(type) {
	case JetonEmis:
		if _, ok := r.empDeID[e.Emetteur]; e.Emetteur != "" && !ok {
			// Its issuer was revoked before it was recorded: it never works.
			r.revoques[e.Empreinte] = true
			return
		}
		r.parEmp[e.Empreinte] = Habilitation{JetonID: e.ID, Role: e.Role, Tournoi: e.Tournoi, Tables: e.Tables, Expire: e.Expire,
			Centre: e.Centre, Libelle: e.Libelle, Emetteur: e.Emetteur}
		r.empDeID[e.ID] = e.Empreinte
		if e.Emetteur != "" {
			r.enfants[e.Emetteur] = append(r.enfants[e.Emetteur], e.ID)
		}
	case JetonRevoque:
		r.revoquer(e.ID)
	}
}

// revoquer forgets token id and the tokens it issued, directly or not, and
// ends their watches; r.mu held.
func (r *Registre) revoquer(id string) {
	emp, ok := r.empDeID[id]
	if !ok {
		return
	}
	r.revoques[emp] = true
	delete(r.parEmp, emp)
	delete(r.empDeID, id)
	for v := range r.veilles[id] {
		v.cancel(errRevoque)
	}
	delete(r.veilles, id)
	enfants := r.enfants[id]
	delete(r.enfants, id)
	for _, enfant := range enfants {
		r.revoquer(enfant)
	}
}

var (
	errInconnu = &erreur.Erreur{Code: CodeUnauthenticated, Message: "jeton inconnu"}
	errRevoque = &erreur.Erreur{Code: CodeUnauthenticated, Message: "jeton révoqué"}
)

// Authentifier finds the rights of a secret at instant now. A secret the
// registry does not know yet (a token another process has just recorded)
// makes it catch up with the store first, at most once per
// IntervalleRattrapage.
func (r *Registre) Authentifier(ctx context.Context, secret string, now time.Time) (Habilitation, error) {
	emp := Empreinte(secret)
	h, ok, revoque := r.chercher(emp)
	if !ok && !revoque {
		if err := r.rattraperBorne(ctx); err != nil {
			return Habilitation{}, err
		}
		h, ok, revoque = r.chercher(emp)
	}
	switch {
	case revoque:
		return Habilitation{}, errRevoque
	case !ok:
		return Habilitation{}, errInconnu
	case !now.Before(h.Expire):
		return Habilitation{}, expire(h)
	}
	return h, nil
}

func (r *Registre) chercher(emp string) (h Habilitation, ok, revoque bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok = r.parEmp[emp]
	return h, ok, r.revoques[emp]
}

func expire(h Habilitation) *erreur.Erreur {
	return &erreur.Erreur{Code: CodeExpiredToken, Message: "jeton expiré le " + h.Expire.Format("02/01/2006 15:04 MST")}
}

// Jeton returns the rights of the valid token id, as its emission recorded
// them, catching up with the store like Authentifier; an unknown or revoked
// id is a CodeNotFound error.
func (r *Registre) Jeton(ctx context.Context, id string) (Habilitation, error) {
	h, ok := r.parID(id)
	if !ok {
		if err := r.rattraperBorne(ctx); err != nil {
			return Habilitation{}, err
		}
		h, ok = r.parID(id)
	}
	if !ok {
		return Habilitation{}, &erreur.Erreur{Code: CodeNotFound, Message: "jeton inconnu ou déjà révoqué"}
	}
	return h, nil
}

func (r *Registre) parID(id string) (Habilitation, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	emp, ok := r.empDeID[id]
	return r.parEmp[emp], ok
}

// Verifier tells whether the token of h, accepted earlier by Authentifier,
// still works at instant now: neither revoked nor expired since. Every
// operation asks again, a websocket's as well as a request's.
func (r *Registre) Verifier(h Habilitation, now time.Time) error {
	switch {
	case !r.Existe(h.JetonID):
		return errRevoque
	case !now.Before(h.Expire):
		return expire(h)
	}
	return nil
}

// Fiche is a token as a director lists it: its fingerprint, never its
// secret.
type Fiche struct {
	Empreinte string
	Habilitation
}

// Lister returns the tokens that work at instant now in lecteur's scope
// (PorteeListe), sorted by expiry then id, catching up with the store
// like Authentifier.
func (r *Registre) Lister(ctx context.Context, lecteur Habilitation, tournoi string, now time.Time) ([]Fiche, error) {
	tous, tournoi, err := PorteeListe(lecteur, tournoi)
	if err != nil {
		return nil, err
	}
	if err := r.rattraperBorne(ctx); err != nil {
		return nil, err
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	var fiches []Fiche
	for emp, h := range r.parEmp {
		if now.Before(h.Expire) && (tous || h.Tournoi == tournoi) {
			fiches = append(fiches, Fiche{Empreinte: emp, Habilitation: h})
		}
	}
	slices.SortFunc(fiches, func(a, b Fiche) int {
		if c := a.Expire.Compare(b.Expire); c != 0 {
			return c
		}
		return strings.Compare(a.JetonID, b.JetonID)
	})
	return fiches, nil
}

// Existe reports whether a token id is known (issued and not revoked).
func (r *Registre) Existe(id string) bool {
	_, ok := r.parID(id)
	return ok
}

// Veiller returns a context derived from ctx that ends when the token of h
// is revoked or expires (now is the current instant), with the reason as
// its cause (context.Cause): a websocket connection opened with the token
// lives in it, so its subscriptions stop as soon as the token no longer
// works. The registry forgets the watch when the context ends.
func (r *Registre) Veiller(ctx context.Context, h Habilitation, now time.Time) context.Context {
	ctx, cancel := context.WithCancelCause(ctx)
	v := &veille{cancel: cancel}
	r.mu.Lock()
	if _, ok := r.empDeID[h.JetonID]; !ok {
		r.mu.Unlock()
		cancel(errRevoque)
		return ctx
	}
	if r.veilles[h.JetonID] == nil {
		r.veilles[h.JetonID] = map[*veille]struct{}{}
	}
	r.veilles[h.JetonID][v] = struct{}{}
	r.mu.Unlock()
	timer := time.AfterFunc(h.Expire.Sub(now), func() { cancel(expire(h)) })
	context.AfterFunc(ctx, func() {
		timer.Stop()
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.veilles[h.JetonID], v)
		if len(r.veilles[h.JetonID]) == 0 {
			delete(r.veilles, h.JetonID)
		}
	})
	return ctx
}
