// Package parties is the read model of the duplicate games' public views:
// per game, what a hall display shows (grid, tirage, tops, status), as of
// the game's last event. The API serves its game views from it.
package parties

import (
	"bytes"
	"container/list"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"arbitre/domain/duplicate"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/lexicon"
	"arbitre/projections/projection"
)

// Name is the projection's name and checkpoint key.
const Name = "parties"

// schema: one row per game, its view as of the event at position.
const schema = `CREATE TABLE IF NOT EXISTS parties_vues (
	partie   TEXT PRIMARY KEY,
	position INTEGER NOT NULL,
	vue      TEXT    NOT NULL
)`

// Vue is the public view of a game. It holds only what is published: the
// tops retained (never the solutions of an open coup), the tirage on the
// easel, the grid.
type Vue struct {
	ID      string           `json:"id"`
	Tournoi string           `json:"tournoi,omitempty"`
	Numero  int              `json:"numero,omitempty"`
	Statut  duplicate.Statut `json:"statut"`
	Version int              `json:"version"`
	Coup    int              `json:"coup"`
	Config  duplicate.Config `json:"config"`
	// Lexique is the word list the game is judged with (nil for a game
	// created before it was recorded).
	Lexique *lexicon.Identite         `json:"lexique,omitempty"`
	Grille  []string                  `json:"grille"`
	Tirage  string                    `json:"tirage,omitempty"`
	Sac     int                       `json:"sac"`
	Joueurs []string                  `json:"joueurs"`
	Tops    []duplicate.TopRetenu     `json:"tops"`
	Fin     *duplicate.PartieTerminee `json:"fin,omitempty"`
	// ResultatsClos: the director closed the results (duplicate.ResultatsClos).
	ResultatsClos bool             `json:"resultatsClos,omitempty"`
	Chrono        duplicate.Chrono `json:"chrono"`

	// Reliquat and Nouvelles are the tirage on the stand as announced
	// (§3.1), the joker added in the joker formula last in the reliquat;
	// Rejets the tirages rejected since the last one played (§3.2, §3.6).
	Reliquat  string                   `json:"reliquat,omitempty"`
	Nouvelles string                   `json:"nouvelles,omitempty"`
	Rejets    []duplicate.TirageRejete `json:"rejets,omitempty"`
}

// VueDe is the public view of p.
func VueDe(p *duplicate.Partie) Vue {
	b := p.Grille()
	sac := p.Sac()
	v := Vue{ID: p.ID(), Tournoi: p.Tournoi(), Numero: p.Numero(), Statut: p.Statut(), Version: p.Version(),
		Coup: p.ProchainCoup(), Config: p.Config(), Lexique: p.Lexique(), Grille: b.Rows(), Sac: sac.Size(), Joueurs: p.Joueurs(),
		Tops: []duplicate.TopRetenu{}, Fin: p.Fin(), ResultatsClos: p.ResultatsClos(), Chrono: p.Chrono()}
	if p.Statut() == duplicate.StatutTirage || p.Statut() == duplicate.StatutTop {
		rack := p.Rack()
		v.Tirage = rack.String()
	}
	if p.Statut() == duplicate.StatutTirage {
		v.Reliquat, v.Nouvelles = p.TirageEnCours()
		if p.JokerAjoute() {
			v.Reliquat += "?"
		}
	}
	for _, r := range p.Rejets() {
		if r.JokerAjoute {
			r.Reliquat += "?"
		}
		v.Rejets = append(v.Rejets, r)
	}
	for c := 1; c <= p.ProchainCoup(); c++ {
		if t, ok := p.Top(c); ok {
			v.Tops = append(v.Tops, t)
		}
	}
	return v
}

// maxSuivies bounds the games whose state the projection keeps in memory:
// beyond it the least recently changed game is dropped, and replayed from
// the store when its next event comes.
const maxSuivies = 512

// Projection maintains the games' views. Folding an event needs the game's
// whole state (the grid, the bag), which SQL does not hold: the projection
// keeps the state of the games it follows in memory, and replays a game's
// events before the one applied from the store when it does not hold
// exactly them (first event seen since start, a game dropped from memory,
// a transaction rolled back), checking their chain as the runner does. The
// state depends only on the log, so a rebuild gives the same rows.
type Projection struct {
	registre *eventstore.Registry
	store    eventstore.Reader
	mu       sync.Mutex
	suivies  map[string]*list.Element // of *suivie, by stream
	recence  list.List                // most recently changed first
}

// suivie is a game held in memory: the events it folded from each of its
// streams and the position of the last one; vue is its view as of the last
// event Passer did not count, marshalled and cut around its version's
// value (valid when vueAJour): only a game's event changes the view, a
// bulletin's changes the version alone.
type suivie struct {
	stream   string
	partie   *duplicate.Partie
	lus      map[string]uint64
	position uint64
	vue      [2]string
	vueAJour bool
}

var (
	_ projection.Batcher     = (*Projection)(nil)
	_ projection.Folder      = (*Projection)(nil)
	_ projection.PayloadUser = (*repli)(nil)
)

// NewProjection returns the games' views projection: the journal's registry decodes
// the duplicate events (duplicate.RegisterEvents), its store gives a game's
// earlier events when its state is not in memory.
func NewProjection(j projection.Journal) (*Projection, error) {
	return &Projection{registre: j.Registry, store: j.Store, suivies: map[string]*list.Element{}}, nil
}

// Name returns Name.
func (*Projection) Name() string { return Name }

// Setup creates the table.
func (*Projection) Setup(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, schema)
	return err
}

// Reset empties the table and forgets the games in memory.
func (p *Projection) Reset(ctx context.Context, tx *sql.Tx) error {
	p.mu.Lock()
	p.suivies = map[string]*list.Element{}
	p.recence.Init()
	p.mu.Unlock()
	_, err := tx.ExecContext(ctx, `DELETE FROM parties_vues`)
	return err
}

// Apply folds an event of a game's stream into the game and stores its new
// view. A failure leaves the row as it was (the runner rolls back) and the
// game in memory at most ahead of it, which the next event detects.
func (p *Projection) Apply(ctx context.Context, tx *sql.Tx, e eventstore.Event) error {
	return p.ApplyBatch(ctx, tx, []projection.Decoded{{Event: &e}})
}

// touchee is a game a batch changed and the position of its last event.
type touchee struct {
	id       string
	suivie   *suivie
	position uint64
}

// ApplyBatch folds events into their games and stores each changed game's
// view once, as of its last event in the batch (projection.Batcher).
func (p *Projection) ApplyBatch(ctx context.Context, tx *sql.Tx, events []projection.Decoded) error {
	var ordre []*touchee
	touchees := map[string]*touchee{}
	for _, d := range events {
		e := d.Event
		kind, id, err := streamname.ParseStream(e.Stream)
		if err != nil || kind != streamname.KindPartie {
			continue
		}
		suivie, err := p.avant(ctx, *e)
		if err != nil {
			return err
		}
		if err := suivie.plier(p.registre, d); err != nil {
			return err
		}
		t := touchees[id]
		if t == nil {
			t = &touchee{id: id}
			touchees[id] = t
			ordre = append(ordre, t)
		}
		t.suivie, t.position = suivie, e.Position
	}
	q := projection.NewRequetes(tx)
	for _, t := range ordre {
		vue, err := t.suivie.vueJSON()
		if err != nil {
			return err
		}
		if err := ecrireVue(ctx, q, t.id, t.position, vue); err != nil {
			return err
		}
	}
	return q.Fin(ctx)
}

// ecrireVue stores the view of game id, marshalled, as of the event at
// position.
func ecrireVue(ctx context.Context, q *projection.Requetes, id string, position uint64, vue string) error {
	return q.Exec(ctx, `INSERT INTO parties_vues (partie, position, vue) VALUES (?, ?, ?)
		ON CONFLICT (partie) DO UPDATE SET position = excluded.position, vue = excluded.vue`, id, position, vue)
}

// avant returns the game of e's stream (the game's own or one of its
// tables', eventstore.TableStream) holding exactly the events before e:
// the one in memory when it does, else replayed from the store.
func (p *Projection) avant(ctx context.Context, e eventstore.Event) (*suivie, error) {
	p.mu.Lock()
	el := p.suivies[flux(e.Stream)]
	p.mu.Unlock()
	if el != nil {
		if s := el.Value.(*suivie); s.precede(e) {
			p.garder(el, s)
			return s, nil
		}
	}
	s, err := p.rejouer(ctx, e)
	if err != nil {
		return nil, err
	}
	p.garder(el, s)
	return s, nil
}

// flux is the game's own stream of a game's or a table's stream.
func flux(stream string) string {
	if principal, table := streamname.MainStream(stream); table {
		return principal
	}
	return stream
}

// precede tells whether s holds exactly the events of its game before e.
func (s *suivie) precede(e eventstore.Event) bool {
	return s.position < e.Position && s.lus[e.Stream] == e.Revision
}

// rejouer replays from the store the events of e's game (its stream and
// its tables') before e.
func (p *Projection) rejouer(ctx context.Context, e eventstore.Event) (*suivie, error) {
	stream := flux(e.Stream)
	s := nouvelleSuivie(stream)
	// Folded again, so checked again: a chained store's read of a stream
	// refuses an event altered in the file since it was applied
	// (eventstore.ErrTampered).
	evts, err := eventstore.ReadFamily(ctx, p.store, stream)
	if err != nil {
		return nil, err
	}
	avant := evts[:0]
	for _, ev := range evts {
		if ev.Position < e.Position {
			avant = append(avant, ev)
		}
	}
	for i := range avant {
		if err := s.plier(p.registre, projection.Decoded{Event: &avant[i]}); err != nil {
			return nil, err
		}
	}
	if s.lus[e.Stream] != e.Revision {
		return nil, fmt.Errorf("%s: the store holds %d events before revision %d", e.Stream, s.lus[e.Stream], e.Revision)
	}
	return s, nil
}

// nouvelleSuivie is the state of the game of stream before any event.
func nouvelleSuivie(stream string) *suivie {
	return &suivie{stream: stream, partie: duplicate.Nouvelle(nil), lus: map[string]uint64{}} // replays never use the engine
}

// plier folds one event of the game's streams, decoded by a rebuild or
// here. The view shows nothing of the bulletins: their events are counted,
// never decoded (Partie.Passer), and leave the kept view as it was but for
// its version.
func (s *suivie) plier(r *eventstore.Registry, e projection.Decoded) error {
	if duplicate.DuBulletin(e.Type) {
		return s.compter(e.Event, s.partie.Passer(e.Type))
	}
	s.vueAJour = false
	if e = e.Sinon(r); e.Err != nil {
		return e.Err
	}
	return s.compter(e.Event, s.partie.Apply(e.Payload))
}

// vueJSON is the game's view (VueDe) marshalled, byte for byte what
// json.Marshal gives. It is worked out and marshalled again only after a
// game's event: a burst of bulletins on a game of 2,000 players rewrites
// its view for each batch, and listing and sorting its players, then
// marshalling the view of 2,000 licences, were most of it (issue 34
// item 3). After a bulletin's event, the kept bytes take the game's new
// version, which json.Marshal writes as strconv.Itoa does.
func (s *suivie) vueJSON() (string, error) {
	if !s.vueAJour {
		v := VueDe(s.partie)
		b, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		if s.vue, err = couperVersion(b, v.Version); err != nil {
			return "", err
		}
		s.vueAJour = true
	}
	var out strings.Builder
	out.Grow(len(s.vue[0]) + 20 + len(s.vue[1]))
	out.WriteString(s.vue[0])
	out.WriteString(strconv.Itoa(s.partie.Version()))
	out.WriteString(s.vue[1])
	return out.String(), nil
}

// champVersion opens the version's field of a marshalled view: never the
// first field (id is), and never inside a string, whose quotes are escaped.
const champVersion = `,"version":`

// couperVersion cuts vue, a view of version version marshalled, around
// its version's value: what comes before it and what comes after.
func couperVersion(vue []byte, version int) ([2]string, error) {
	valeur := strconv.Itoa(version)
	i := bytes.Index(vue, []byte(champVersion+valeur))
	fin := i + len(champVersion) + len(valeur)
	if i < 0 || fin >= len(vue) || vue[fin] != ',' && vue[fin] != '}' {
		return [2]string{}, fmt.Errorf("the marshalled view holds no field version %d", version)
	}
	return [2]string{string(vue[:i+len(champVersion)]), string(vue[fin:])}, nil
}

// compter records e as folded, unless folding it failed with err.
func (s *suivie) compter(e *eventstore.Event, err error) error {
	if err != nil {
		return err
	}
	s.lus[e.Stream]++
	s.position = e.Position
	return nil
}

// garder keeps s as the state of its game, the most recently changed; el
// is the element that held the game, if any.
func (p *Projection) garder(el *list.Element, s *suivie) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if el != nil && p.suivies[s.stream] == el {
		el.Value = s
		p.recence.MoveToFront(el)
		return
	}
	p.suivies[s.stream] = p.recence.PushFront(s)
	for p.recence.Len() > maxSuivies {
		ancien := p.recence.Back()
		p.recence.Remove(ancien)
		delete(p.suivies, ancien.Value.(*suivie).stream)
	}
}

// Fold folds the games in memory during a rebuild and writes each game's
// final view once (projection.Folder, issue 16 item 10). A finished game
// that received no event for a while (its last corrections come after its
// end) has its view rendered and its state dropped, so memory holds the
// games in play only; an event that comes to it later replays it from the
// store.
func (p *Projection) Fold() projection.Fold {
	return &repli{p: p, enJeu: map[string]*enMemoire{}, vues: map[string]vueFinale{}}
}

// inactive is how many events of the log a finished game goes without one
// of its own before a rebuild drops it from memory; balayage is how often
// the rebuild looks for such games (variables for the tests).
var (
	inactive = 16384
	balayage = 4096
)

// repli is the fold of the games' views.
type repli struct {
	p     *Projection
	enJeu map[string]*enMemoire // by the game's own stream
	vues  map[string]vueFinale  // by game id
	n     int                   // events folded
}

// enMemoire is a game held by the fold and the count of events folded at
// its last event.
type enMemoire struct {
	id string
	s  *suivie
	vu int
}

// vueFinale is a game's last position and, once the game was dropped from
// memory, its view.
type vueFinale struct {
	position uint64
	stream   string
	vue      []byte
}

// Add folds one event of a game's stream into the game.
func (f *repli) Add(ctx context.Context, e projection.Decoded) error {
	f.n++
	if f.n%balayage == 0 {
		if err := f.balayer(); err != nil {
			return err
		}
	}
	kind, id, err := streamname.ParseStream(e.Stream)
	if err != nil || kind != streamname.KindPartie {
		return nil
	}
	stream := flux(e.Stream)
	g := f.enJeu[stream]
	if _, vue := f.vues[id]; g == nil && !vue {
		// The fold reads the log from its start: a game it has not met
		// has no event before e, and is not read again from the store.
		g = &enMemoire{id: id, s: nouvelleSuivie(stream)}
		f.enJeu[stream] = g
	}
	if g == nil || !g.s.precede(*e.Event) {
		suivie, err := f.p.rejouer(ctx, *e.Event)
		if err != nil {
			return err
		}
		g = &enMemoire{id: id, s: suivie}
		f.enJeu[stream] = g
	}
	if err := g.s.plier(f.p.registre, e); err != nil {
		return err
	}
	g.vu = f.n
	f.vues[id] = vueFinale{position: e.Position, stream: stream}
	return nil
}

// UsesPayload tells whether the views read the payloads of events of type
// typ, as Projection.UsesPayload (projection.PayloadUser).
func (*repli) UsesPayload(typ string) bool { return lit(typ) }

// UsesPayload tells whether the views read the payloads of events of type
// typ: a game's, never a bulletin's (projection.PayloadUser).
func (*Projection) UsesPayload(typ string) bool { return lit(typ) }

// lit tells whether the views read the payloads of events of type typ.
func lit(typ string) bool { return strings.HasPrefix(typ, "partie.") && !duplicate.DuBulletin(typ) }

// balayer renders the view of each finished game idle for inactive events
// and drops its state.
func (f *repli) balayer() error {
	for stream, g := range f.enJeu {
		if g.s.partie.Statut() != duplicate.StatutTerminee || f.n-g.vu < inactive {
			continue
		}
		v := f.vues[g.id]
		var err error
		if v.vue, err = json.Marshal(VueDe(g.s.partie)); err != nil {
			return err
		}
		f.vues[g.id] = v
		delete(f.enJeu, stream)
	}
	return nil
}

// Write stores each game's final view.
func (f *repli) Write(ctx context.Context, tx *sql.Tx) error {
	q := projection.NewRequetes(tx)
	for _, id := range slices.Sorted(maps.Keys(f.vues)) {
		v := f.vues[id]
		if v.vue == nil {
			var err error
			if v.vue, err = json.Marshal(VueDe(f.enJeu[v.stream].s.partie)); err != nil {
				return err
			}
		}
		if err := ecrireVue(ctx, q, id, v.position, string(v.vue)); err != nil {
			return err
		}
	}
	return q.Fin(ctx)
}

// lire returns the view of game id and the position of its last event,
// or a nil view when that position is still connue (the caller's copy is
// current): one read of one row, the view's bytes only when they changed.
// A game the projection does not hold is CodeNotFound.
func lire(ctx context.Context, db *sql.DB, id string, connue uint64) (*Vue, uint64, error) {
	var position uint64
	var data sql.NullString
	err := db.QueryRowContext(ctx, `SELECT position, CASE WHEN position = ? THEN NULL ELSE vue END FROM parties_vues WHERE partie = ?`,
		connue, id).Scan(&position, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, &erreur.Erreur{Code: duplicate.CodeNotFound, Message: "la partie " + id + " n'existe pas"}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("parties: %w", err)
	}
	if !data.Valid {
		return nil, position, nil
	}
	var v Vue
	if err := json.Unmarshal([]byte(data.String), &v); err != nil {
		return nil, 0, fmt.Errorf("parties: %w", err)
	}
	return &v, position, nil
}
