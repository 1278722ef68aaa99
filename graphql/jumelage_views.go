package graphql

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupquery "arbitre/domain/duplicate/query"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/federation"
	fedcommand "arbitre/domain/federation/command"
	"arbitre/projections/centres"
)

// jumelageDuJeton loads the twinning a CENTRE token is bound to (its
// tournament scope names the twinning, guide §2.18).
func (r *Resolver) jumelageDuJeton(ctx context.Context, h acces.Habilitation) (*federation.Jumelage, error) {
	if h.Role != acces.Centre {
		return nil, &erreur.Erreur{Code: CodeForbidden, Message: "seul un jeton de centre suit un jumelage (arbitre token create --role centre --tournoi JUMELAGE --centre SITE)"}
	}
	j, err := r.Queries().Federation.Jumelage(ctx, h.Tournoi)
	if err != nil {
		return nil, err
	}
	if j.Version() == 0 {
		return nil, &erreur.Erreur{Code: CodeNotFound, Message: fmt.Sprintf("le jumelage %s n'existe pas", h.Tournoi)}
	}
	return j, nil
}

// suiviAutorise checks that the request may follow the games of tournoi:
// a CENTRE token of a twinning of that tournament, its centre one of the
// twinning's sites (§2.18.1.A, §2.18.2.A), or the tournament's director.
// tournoi is read from the stored game, never from the request.
func (r *Resolver) suiviAutorise(ctx context.Context, tournoi string) (acces.Habilitation, *federation.Jumelage, error) {
	h, err := habilitation(ctx)
	if err != nil {
		return h, nil, err
	}
	if h.Role != acces.Centre {
		_, err := authorize(ctx, []acces.Role{acces.Directeur}, acces.Portee{Tournoi: tournoi})
		return h, nil, err
	}
	j, err := r.jumelageDuJeton(ctx, h)
	if err != nil {
		return h, nil, err
	}
	if !j.Suit(h.Centre, tournoi) {
		return h, nil, &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("le jumelage %s ne fait pas suivre au site %s les parties du tournoi %s", j.ID(), h.Centre, tournoi)}
	}
	return h, j, nil
}

// faitsPartie are the facts of game id from position depuis on, for a
// twinned site to replay (guide §2.18.1.A).
func (r *Resolver) faitsPartie(ctx context.Context, id string, depuis int) ([]eventstore.Event, error) {
	p, err := r.Queries().Duplicate.Partie(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, _, err := r.suiviAutorise(ctx, p.Tournoi()); err != nil {
		return nil, err
	}
	return r.Queries().Duplicate.Faits(ctx, dupquery.Faits{Partie: id, Depuis: depuis})
}

// veillerSite records, when a twinned site's CENTRE token follows one of
// the twinned tournament's games, that its link is back, and once the
// subscription ends before the game does, that its link is cut: the
// principal notices a cut itself (§2.18.1.B, §2.18.2.B). Any other caller
// follows the game as the public does, nothing recorded.
func (r *Resolver) veillerSite(ctx context.Context, partie string) error {
	h, err := habilitation(ctx)
	if err != nil || h.Role != acces.Centre {
		return nil
	}
	p, err := r.Queries().Duplicate.Partie(ctx, partie)
	if err != nil {
		return err
	}
	// A centre's token of another kind (an event of §2.17) follows the
	// game as the public does.
	j, err := r.Queries().Federation.Jumelage(ctx, h.Tournoi)
	if err != nil || !j.Suit(h.Centre, p.Tournoi()) {
		return err
	}
	md := actor(h)
	lien := [2]string{j.ID(), h.Centre}
	if err := r.liens.ouvrir(lien, func() error {
		return r.twinning(md).Retablir(ctx, fedcommand.Retablir{Jumelage: j.ID(), Site: h.Centre, Instant: eventstore.ReadClock(r.Clock)})
	}); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		r.liens.fermer(lien, func() {
			suite := context.WithoutCancel(idempotency.WithNoCommand(ctx))
			if q, err := r.Queries().Duplicate.Partie(suite, partie); err != nil || q.Statut() == duplicate.StatutTerminee {
				return
			}
			// A cut refused (the game already annulled for that centre)
			// has nothing more to record.
			_ = r.twinning(md).Couper(suite, fedcommand.Couper{Jumelage: j.ID(), Site: h.Centre, Partie: partie, Instant: eventstore.ReadClock(r.Clock)})
		})
	}()
	return nil
}

// recevoirPaquet reads a centre's bundle sent online (base64) and checks
// it speaks for the CENTRE token's event or twinning and centre (a
// director speaks for any), within the centre's rate (debitCentres), then
// verifier's checks of its manifest, before its events are read: the
// command's context and metadata.
func (r *Resolver) recevoirPaquet(ctx context.Context, paquet string, cmid *string, verifier func(context.Context, centres.Manifeste) error) (context.Context, eventstore.Metadata, centres.Paquet, error) {
	data, err := base64.StdEncoding.DecodeString(paquet)
	if err != nil {
		return ctx, eventstore.Metadata{}, centres.Paquet{}, invalidInput("paquet", err)
	}
	a, err := centres.Ouvrir(ctx, data)
	if err != nil {
		return ctx, eventstore.Metadata{}, centres.Paquet{}, err
	}
	m := a.Manifeste
	ctx, md, err := r.commande(ctx, []acces.Role{acces.Centre}, acces.Portee{Tournoi: m.Epreuve}, nil, cmid)
	if err != nil {
		return ctx, md, centres.Paquet{}, err
	}
	if h, _ := habilitation(ctx); h.Role == acces.Centre && h.Centre != m.Centre {
		return ctx, md, centres.Paquet{}, &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("ce jeton parle pour le centre %s, pas %s", h.Centre, m.Centre)}
	}
	if err := r.envois.autoriser(m.Epreuve, m.Centre); err != nil {
		return ctx, md, centres.Paquet{}, err
	}
	if err := verifier(ctx, m); err != nil {
		return ctx, md, centres.Paquet{}, err
	}
	p, err := a.Lire(ctx, r.Registry)
	return ctx, md, p, err
}

// indexJumelages lists the twinnings of each principal tournament: a read
// model in memory, which its runner brings up to the log's head before
// each read.
type indexJumelages struct {
	registre   *eventstore.Registry
	mu         sync.Mutex
	parTournoi map[string][]string
}

// nomJumelages is the twinnings' index's name among the read models.
const nomJumelages = "jumelages"

func (*indexJumelages) Name() string { return nomJumelages }

// Lit tells whether the index reads events of type typ: a twinning's
// creation (projection.Selectif). Its runner passes a live batch holding
// none, such as the hall's bulletins, without a transaction.
func (*indexJumelages) Lit(typ string) bool { return typ == federation.TypeJumelageCree }

// Apply folds a twinning's creation (Lit); other events are skipped without
// being decoded.
func (x *indexJumelages) Apply(_ context.Context, e eventstore.Event) error {
	if !x.Lit(e.Type) {
		return nil
	}
	v, err := x.registre.Decode(e)
	if err != nil {
		return err
	}
	if c := v.(federation.JumelageCree); c.Tournoi != "" {
		x.mu.Lock()
		defer x.mu.Unlock()
		x.parTournoi[c.Tournoi] = append(x.parTournoi[c.Tournoi], c.Jumelage)
	}
	return nil
}

// de returns the twinnings of tournoi.
func (x *indexJumelages) de(tournoi string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return slices.Clone(x.parTournoi[tournoi])
}

// exigerLiaisons refuses the next tirage of a game while, in a formula-2
// twinning of its tournament (read from the stored game), a site's link is
// cut: every site stops (§2.18.2.B).
func (r *Resolver) exigerLiaisons(ctx context.Context, partie string) error {
	p, err := r.Queries().Duplicate.Partie(ctx, partie)
	if err != nil {
		return err
	}
	if err := r.attendreRunner(ctx, r.lectureJumelages, 0); err != nil {
		return err
	}
	for _, id := range r.jumelages.de(p.Tournoi()) {
		j, err := r.Queries().Federation.Jumelage(ctx, id)
		if err != nil {
			return err
		}
		if err := j.ExigerLiaisons(); err != nil {
			return err
		}
	}
	return nil
}

// liensOuverts counts the open subscriptions of each twinned site (per
// twinning and site): a site is cut when its last one ends, not when an
// older one ends after it reconnected. The return and the cut are
// recorded in the order the subscriptions open and close.
type liensOuverts struct {
	mu sync.Mutex
	n  map[[2]string]int
}

// ouvrir counts one more subscription once retablir, the return of the
// link, is recorded.
func (l *liensOuverts) ouvrir(lien [2]string, retablir func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := retablir(); err != nil {
		return err
	}
	if l.n == nil {
		l.n = map[[2]string]int{}
	}
	l.n[lien]++
	return nil
}

// fermer counts one subscription less, and runs couper, the cut of the
// link, when it was the last.
func (l *liensOuverts) fermer(lien [2]string, couper func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[lien]--; l.n[lien] > 0 {
		return
	}
	delete(l.n, lien)
	couper()
}

// centreDuTournoi lets a director limited to one tournament issue a CENTRE
// token only for a twinning whose principal tournament is his (guide
// §2.18): a centre token's scope names an event or a twinning, which share
// their ids' namespace with tournaments, so a director of T2 would
// otherwise mint a token for a twinning « T2 » of another tournament and
// follow that tournament's games (issue 28 item 11). An event in many
// centres (§2.17) is the federation's: only a director without
// tournament issues its tokens.
func (r *Resolver) centreDuTournoi(ctx context.Context, issuer acces.Habilitation, d acces.Demande) error {
	if d.Role != acces.Centre || issuer.Tournoi == "" {
		return nil
	}
	j, err := r.Queries().Federation.Jumelage(ctx, d.Tournoi)
	if err != nil {
		return err
	}
	if j.Version() == 0 || j.Tournoi() != issuer.Tournoi {
		return &erreur.Erreur{Code: CodeForbidden, Message: fmt.Sprintf("un directeur du tournoi %s n'émet un jeton de centre que pour un jumelage "+
			"dont %s est le tournoi principal (guide §2.18) ; les autres jetons de centre sont émis par un directeur sans tournoi", issuer.Tournoi, issuer.Tournoi)}
	}
	return nil
}
