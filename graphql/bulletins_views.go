package graphql

import (
	"context"
	"encoding/json"
	"sync"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	dupquery "arbitre/domain/duplicate/query"
	"arbitre/domain/erreur"
	tquery "arbitre/domain/tournoi/query"
	"arbitre/engine/correction"
	"arbitre/graphql/model"
)

// tablesTournois keeps each tournament's tables as of the number of
// events they were read at. A registered player's table never changes
// (tournoi.Tournoi refuses a licence registered already, on a command as on
// a replay): kept tables that hold every licence asked for answer for them
// as the tournament's stream does now, without reading it (issue 34: a
// bulletin reads nothing of its tournament). A licence they lack may have
// been registered since: the stream is then read for an event after them
// (one indexed read), and the tournament read again when there is one.
// Reading a tournament again is done by one request at a time: the fifty
// arbiters who start a coup together find them missing together, and one
// reads the tournament while the others wait for it.
type tablesTournois struct {
	mu      sync.Mutex
	lu      map[string]tablesLues
	lecture sync.Mutex
}

type tablesLues struct {
	version int
	tables  map[string]int // never changed once kept
}

// tablesDe maps each registered player of a tournament to his table, as
// the tournament's stream holds them now for every one of licences (the
// players the caller looks up).
func (r *Resolver) tablesDe(ctx context.Context, tournoi string, licences []string) (map[string]int, error) {
	if tournoi == "" {
		return map[string]int{}, nil
	}
	if tables, ok, err := r.tablesGardees(ctx, tournoi, licences); ok || err != nil {
		return tables, err
	}
	r.tables.lecture.Lock()
	defer r.tables.lecture.Unlock()
	if tables, ok, err := r.tablesGardees(ctx, tournoi, licences); ok || err != nil {
		return tables, err // read by the request this one waited for
	}
	t, err := r.Queries().Tournoi.Tournoi(ctx, tournoi)
	if err != nil {
		return nil, err
	}
	lu := tablesLues{version: t.Version(), tables: map[string]int{}}
	for _, j := range t.Joueurs() {
		lu.tables[j.Licence] = j.Table
	}
	r.tables.mu.Lock()
	if r.tables.lu == nil {
		r.tables.lu = map[string]tablesLues{}
	}
	r.tables.lu[tournoi] = lu
	r.tables.mu.Unlock()
	return lu.tables, nil
}

// tablesGardees returns the tables kept of a tournament when they hold
// every one of licences, or else when its stream holds nothing after them;
// ok is false when none are kept or they are out of date.
func (r *Resolver) tablesGardees(ctx context.Context, tournoi string, licences []string) (map[string]int, bool, error) {
	r.tables.mu.Lock()
	lu, ok := r.tables.lu[tournoi]
	r.tables.mu.Unlock()
	if !ok {
		return nil, false, nil
	}
	if tiennent(lu.tables, licences) {
		return lu.tables, true, nil
	}
	change, err := r.Queries().Tournoi.Change(ctx, tquery.Depuis{Tournoi: tournoi, Version: lu.version})
	if err != nil || change {
		return nil, false, err
	}
	return lu.tables, true, nil
}

// tiennent tells whether tables hold a table (0 included: a player
// registered without one) for every one of licences.
func tiennent(tables map[string]int, licences []string) bool {
	for _, l := range licences {
		if _, ok := tables[l]; !ok {
			return false
		}
	}
	return true
}

// arbitreDuJoueur authorizes the arbiter of the player's table (or the
// director): the table is the one the tournament registered for the
// player, never one the client sends, and the game's tournament the one it
// was created in (adapters.Depot.Tournoi).
func (r *Resolver) arbitreDuJoueur(ctx context.Context, partie, licence string) (acces.Portee, acces.Habilitation, error) {
	tournoi, err := r.Queries().Duplicate.TournoiDe(ctx, partie)
	if err != nil {
		return acces.Portee{}, acces.Habilitation{}, err
	}
	tables, err := r.tablesDe(ctx, tournoi, []string{licence})
	if err != nil {
		return acces.Portee{}, acces.Habilitation{}, err
	}
	portee := acces.Portee{Tournoi: tournoi, Table: tables[licence], Siege: true}
	h, err := authorize(ctx, []acces.Role{acces.Arbitre}, portee)
	return portee, h, err
}

// consulter reads game partie as stored, for reading only.
func (r *Resolver) consulter(ctx context.Context, partie string, lire func(p *duplicate.Partie) error) error {
	return r.Queries().Duplicate.Consulter(ctx, dupquery.Consultation{Partie: partie, Lire: lire})
}

// surBulletin runs a command on a player's bulletin for an arbiter of his
// table (or the director) and answers with the bulletin's state, read
// back from the game as stored.
func (r *Resolver) surBulletin(ctx context.Context, partie string, coup int, licence string, version *int, cmid *string,
	run func(ctx context.Context, app *dupcommand.Application, arbitre string, table int) error) (*model.Bulletin, error) {
	portee, h, err := r.arbitreDuJoueur(ctx, partie, licence)
	if err != nil {
		return nil, err
	}
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Arbitre}, portee, version, cmid)
	if err != nil {
		return nil, err
	}
	// The bulletin as the command stored it: its table's stream and the
	// game's were guarded by the append, so the game the command saved
	// holds the player's entries as the store does (issue 17: one read of
	// the game less per bulletin). A retry already applied saved nothing:
	// it reads the game as stored.
	var enregistree *duplicate.Partie
	app := r.partieApp(md).Enregistree(func(p *duplicate.Partie) { enregistree = p })
	if err := run(ctx, app, arbitreDe(h), portee.Table); err != nil {
		return nil, err
	}
	if enregistree != nil {
		return vueBulletin(enregistree, coup, licence), nil
	}
	var v *model.Bulletin
	err = r.consulter(ctx, partie, func(p *duplicate.Partie) error { v = vueBulletin(p, coup, licence); return nil })
	return v, err
}

// arbitreDe names the arbiter in bulletin events: his token's label or id.
func arbitreDe(h acces.Habilitation) string { return "jeton:" + h.JetonID }

func vueBulletin(p *duplicate.Partie, coup int, licence string) *model.Bulletin {
	v := &model.Bulletin{Partie: p.ID(), Coup: coup, Licence: licence, BilletRemis: p.BilletRemis(coup, licence)}
	if d, ok := p.Depose(coup, licence); ok {
		ecrit, _ := json.Marshal(d.Bulletin)
		v.Ecrit = string(ecrit)
		if d.Table > 0 {
			table := d.Table
			v.Table = &table
		}
	}
	if _, ok := p.Top(coup); ok {
		if d, err := p.DecisionMoteur(coup, licence); err == nil {
			v.DecisionMoteur = vueDecision(d)
		}
	}
	if d, ok := p.DecisionSanctionnee(coup, licence); ok {
		v.Decision = vueDecision(d)
	}
	if c, ok := p.Correction(coup, licence); ok {
		v.CorrigePar = optional(c.Arbitre)
		v.Motif = optional(c.Motif)
		v.DecisionArbitre = vueDecision(c.Finale())
	}
	if e, ok := p.ContreArbitrage(coup, licence); ok {
		v.ContreArbitrage = &model.ContreArbitrage{Arbitre: e.Arbitre, Confirme: e.Confirme, Motif: optional(e.Motif)}
		if e.Decision != nil {
			v.ContreArbitrage.Decision = vueDecision(*e.Decision)
		}
	}
	if e, ok := p.DecisionEnAppel(coup, licence); ok {
		v.DecisionCommission = vueDecision(*e.Decision)
	}
	return v
}

func vueDecision(d correction.Decision) *model.Decision {
	return &model.Decision{Paye: d.Paid, Sanction: d.Sanction, Raisons: append([]correction.Reason{}, d.Reasons...),
		Commission: d.Commission, Place: optional(d.Place), ScoreRenvoye: d.ScoreWrittenBack, Moteur: d.Engine}
}

// bulletinDe checks a bulletin as typed with the correction engine's own
// validation.
func bulletinDe(b correction.Bulletin) (correction.Bulletin, error) {
	if b.Solutions == nil {
		b.Solutions = []correction.Solution{}
	}
	if err := b.Validate(); err != nil {
		return b, invalidInput("bulletin", err)
	}
	return b, nil
}

// decisionDe reads an arbiter's decision; nil means "confirm the engine".
func decisionDe(in *model.DecisionInput) (*correction.Decision, error) {
	if in == nil {
		return nil, nil
	}
	return &correction.Decision{Paid: in.Paye, Sanction: in.Sanction, Reasons: append([]correction.Reason(nil), in.Raisons...),
		Commission: in.Commission, Place: deref(in.Place), ScoreWrittenBack: in.ScoreRenvoye}, nil
}

// partieDuDirecteur loads a game the caller directs or reviews (the
// tournament's director or commission): the progress of its bulletins is
// theirs; an unknown game is NOT_FOUND.
func (r *Resolver) partieDuDirecteur(ctx context.Context, partie string) (*duplicate.Partie, error) {
	p, err := r.Queries().Duplicate.Partie(ctx, partie)
	if err != nil {
		return nil, err
	}
	if _, err := authorize(ctx, []acces.Role{acces.Directeur, acces.Commission}, acces.Portee{Tournoi: p.Tournoi()}); err != nil {
		return nil, err
	}
	if p.Statut() == "" {
		return nil, &erreur.Erreur{Code: duplicate.CodeNotFound, Message: "la partie " + partie + " n'existe pas"}
	}
	return p, nil
}
