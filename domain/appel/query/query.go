// Package query reads appeals: one appeal's state and history (who did what
// and when, from event metadata), and the appeals of a tournament or of a
// game from a fold over the log.
package query

import (
	"context"
	"sort"
	"sync"
	"time"

	"arbitre/domain/appel"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/correction"
)

// Etape is one event of an appeal's history.
type Etape struct {
	Revision    uint64
	Position    uint64
	Type        string
	Quand       time.Time
	Acteur      string
	Role        string
	Correlation string
	Causation   string
	// Evenement is the decoded payload (appel.AppelDepose, appel.VoteEmis...).
	Evenement any
}

// Vue is an appeal's state and history.
type Vue struct {
	ID       string
	Objet    appel.Objet
	Statut   appel.Statut
	DeposeLe time.Time
	Niveaux  []appel.Niveau
	// DecisionEnVigueur is the bulletin decision the appeal put in force, nil
	// when the contested decision stands; NiveauEnVigueur the level.
	DecisionEnVigueur *correction.Decision
	NiveauEnVigueur   int
	// Revision is the stream revision to send back as a command's Revision.
	Revision   uint64
	Historique []Etape
}

// Lecteur reads appeals from the store.
type Lecteur struct {
	store    eventstore.Reader
	registre *eventstore.Registry
}

// NewLecteur returns a reader; registre must hold the appeal's event types.
func NewLecteur(store eventstore.Reader, registre *eventstore.Registry) *Lecteur {
	return &Lecteur{store: store, registre: registre}
}

// Appel returns the state and history of appeal id of tournament tournoi,
// replayed from its stream (appel.Retrouver).
func (l *Lecteur) Appel(ctx context.Context, tournoi, id string) (Vue, error) {
	var v Vue
	a, err := appel.Retrouver(tournoi, id, func(flux string) (*appel.Appel, error) {
		evts, err := eventstore.ReadWholeStream(ctx, l.store, flux)
		if err != nil {
			return nil, err
		}
		a := appel.Nouveau()
		v = Vue{Historique: make([]Etape, 0, len(evts))}
		for _, e := range evts {
			payload, err := l.registre.Decode(e)
			if err != nil {
				return nil, err
			}
			if err := a.Apply(payload); err != nil {
				return nil, err
			}
			v.Historique = append(v.Historique, Etape{Revision: e.Revision, Position: e.Position, Type: e.Type,
				Quand: e.Metadata.RecordedAt, Acteur: e.Metadata.Actor, Role: e.Metadata.Role,
				Correlation: e.Metadata.CorrelationID, Causation: e.Metadata.CausationID, Evenement: payload})
			v.Revision = e.Revision
		}
		return a, nil
	})
	switch {
	case err != nil:
		return Vue{}, err
	case a.Version() == 0:
		return Vue{}, appel.Inconnu(id)
	}
	v.ID, v.Objet, v.Statut, v.DeposeLe, v.Niveaux = a.ID(), a.Objet(), a.Statut(), a.DeposeLe(), a.Niveaux()
	v.DecisionEnVigueur, v.NiveauEnVigueur = a.DecisionEnVigueur()
	return v, nil
}

// Resume is an appeal in a list.
type Resume struct {
	ID       string
	Objet    appel.Objet
	Statut   appel.Statut
	DeposeLe time.Time
	// Niveau and Instance are the current level.
	Niveau   int
	Instance appel.Instance
	// Issue is the current level's outcome, "" until decided.
	Issue             appel.Issue
	DecisionEnVigueur *correction.Decision
	// AAppliquer: a decision in force still has to reach the game.
	AAppliquer bool
}

// Index is the fold of every appeal, for lists by tournament and by game;
// an appeal is known by its stream (two tournaments may use the same id).
// It is a read model in memory (Name, Apply): its runner follows the log
// and brings it up to the head before each read; Reconstruire folds the
// whole log at once. Safe for concurrent use.
type Index struct {
	registre *eventstore.Registry
	mu       sync.RWMutex
	appels   map[string]*appel.Appel // by stream
	ordre    []string
}

// Name is the appeals' index's name among the read models.
const Name = "appels"

// NewIndex returns an empty fold that decodes events with r.
func NewIndex(r *eventstore.Registry) *Index {
	return &Index{registre: r, appels: map[string]*appel.Appel{}}
}

// Name is the index's name among the read models.
func (*Index) Name() string { return Name }

// Appliquer folds one decoded event of the given stream; other kinds of
// stream are ignored.
func (x *Index) Appliquer(stream string, e any) error {
	kind, _, err := streamname.ParseStream(stream)
	if err != nil || kind != streamname.KindAppel {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if a := x.appels[stream]; a != nil {
		return a.Apply(e)
	}
	a := appel.Nouveau()
	if err := a.Apply(e); err != nil {
		return err
	}
	x.appels[stream] = a
	x.ordre = append(x.ordre, stream)
	return nil
}

// lus are the event types of an appeal, as appel.RegisterEvents registers
// them, the only ones the index reads.
var lus = func() map[string]bool {
	reg := eventstore.NewRegistry()
	if err := appel.RegisterEvents(reg); err != nil {
		panic(err) // a fresh registry refuses none
	}
	out := map[string]bool{}
	for _, typ := range reg.Types() {
		out[typ] = true
	}
	return out
}()

// Lit tells whether the index reads events of type typ: an appeal's
// (projection.Selectif). Its runner passes a live batch holding none, such
// as the hall's bulletins, without a transaction.
func (*Index) Lit(typ string) bool { return lus[typ] }

// Apply folds a recorded event of an appeal's type (Lit) in an appeal's
// stream; other events are skipped without being decoded.
func (x *Index) Apply(_ context.Context, e eventstore.Event) error {
	if !x.Lit(e.Type) {
		return nil
	}
	if kind, _, err := streamname.ParseStream(e.Stream); err != nil || kind != streamname.KindAppel {
		return err
	}
	payload, err := x.registre.Decode(e)
	if err != nil {
		return err
	}
	return x.Appliquer(e.Stream, payload)
}

// Reconstruire folds the whole log.
func Reconstruire(ctx context.Context, store eventstore.Reader, r *eventstore.Registry) (*Index, error) {
	x := NewIndex(r)
	if _, err := eventstore.ForEachAfter(ctx, store, 0, func(e eventstore.Event) error { return x.Apply(ctx, e) }); err != nil {
		return nil, err
	}
	return x, nil
}

// ParTournoi lists the appeals of a tournament, oldest filing first.
func (x *Index) ParTournoi(tournoi string) []Resume {
	return x.lister(func(o appel.Objet) bool { return o.Tournoi == tournoi })
}

// ParPartie lists the appeals about a game, oldest filing first.
func (x *Index) ParPartie(partie string) []Resume {
	return x.lister(func(o appel.Objet) bool { return o.Partie == partie })
}

// EnAttente lists the appeals whose decision in force has not reached
// its game yet, oldest filing first: what a crash between the two writes
// of a decision leaves behind (command.AppliquerDecision completes them).
func (x *Index) EnAttente() []Resume {
	var out []Resume
	for _, r := range x.lister(func(appel.Objet) bool { return true }) {
		if r.AAppliquer {
			out = append(out, r)
		}
	}
	return out
}

func (x *Index) lister(garder func(appel.Objet) bool) []Resume {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []Resume
	for _, stream := range x.ordre {
		a := x.appels[stream]
		if !garder(a.Objet()) {
			continue
		}
		niveaux := a.Niveaux()
		n := niveaux[len(niveaux)-1]
		r := Resume{ID: a.ID(), Objet: a.Objet(), Statut: a.Statut(), DeposeLe: a.DeposeLe(), Niveau: n.Numero, Instance: n.Instance}
		if n.Decision != nil {
			r.Issue = n.Decision.Issue
		}
		r.DecisionEnVigueur, _ = a.DecisionEnVigueur()
		_, r.AAppliquer = a.AAppliquer()
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].DeposeLe.Before(out[j].DeposeLe) })
	return out
}
