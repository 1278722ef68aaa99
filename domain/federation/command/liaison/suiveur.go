package liaison

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
	fedcommand "arbitre/domain/federation/command"
	tcommand "arbitre/domain/tournoi/command"
)

// Acteur is who the replayed facts are recorded for (Metadata.Actor): the
// link to the principal, not a person of the site.
const Acteur = "liaison"

// Principal is the principal's server as a twinned site sees it
// (adapters.Principal: GraphQL over HTTP and graphql-transport-ws).
type Principal interface {
	Suivi(ctx context.Context) (federation.Suivi, error)
	// Faits are a game's facts from position depuis on.
	Faits(ctx context.Context, partie string, depuis int) ([]federation.Fait, error)
	// Ecouter follows a game live: f at once and after every change at the
	// principal, until the link drops (an error), f fails or ctx ends.
	Ecouter(ctx context.Context, partie string, f func() error) error
	// EnvoyerResultats sends the bundle of the site's game under the
	// idempotency key cle (clientMutationId).
	EnvoyerResultats(ctx context.Context, paquet []byte, cle string) error
}

// Site is the twinned site's own server, where the facts are replayed by
// its own commands, acting for Acteur.
type Site struct {
	// Tournoi is the site's own tournament: its players play the games.
	Tournoi   string
	Parties   *dupcommand.Application
	Tournois  *tcommand.Application
	Jumelages *fedcommand.Twinning
	// TournoiDe loads the site's tournament.
	TournoiDe func(ctx context.Context) (joueurs, parties []string, err error)
	Journal   eventstore.Reader
	Horloge   eventstore.Clock
	// Paquet writes the bundle of the site's game and reads its results
	// from it, as the principal will (projections/centres).
	Paquet func(ctx context.Context, jumelage, site, partie string) ([]byte, federation.ResultatsCentre, error)
	// Changements wakes at every change of the site's game (its stream and
	// its tables'), at once first.
	Changements func(ctx context.Context, partie string) <-chan uint64
}

// Suiveur follows the principal's games live and replays them at the site
// (guide §2.18.1.A, §2.18.2.A): each fact once, in order, recorded with
// where it came from (its CausationID is the principal's address, game and
// position); after a cut it catches up from the last fact replayed
// (§2.18.1.B). It records the link's cut and return in the site's mirror
// of the twinning, and sends the site's results back as they change.
type Suiveur struct {
	Principal Principal
	// Origine is the principal's address, as the facts record it.
	Origine string
	Site    Site
	Log     *slog.Logger
	// Attente is the first pause before reconnecting, doubled up to
	// AttenteMax while the principal stays unreachable.
	Attente, AttenteMax time.Duration
}

// Suivre runs until ctx ends.
func (s *Suiveur) Suivre(ctx context.Context) error {
	attente := s.Attente
	envoi := map[string]bool{}
	for ctx.Err() == nil {
		suivi, err := s.Principal.Suivi(ctx)
		if err == nil {
			attente = s.Attente
			err = s.session(ctx, suivi, envoi)
		}
		if ctx.Err() != nil {
			break
		}
		if errors.Is(err, errPartieFinie) {
			// The next game, once the principal opens it.
			if pause(ctx, s.AttenteMax) != nil {
				break
			}
			continue
		}
		s.Log.Warn("liaison avec le principal interrompue", "principal", s.Origine, "erreur", err)
		if err := pause(ctx, attente); err != nil {
			break
		}
		attente = min(2*attente, s.AttenteMax)
	}
	return ctx.Err()
}

// errPartieFinie ends a session whose game is over: the link may go until
// the principal opens the next one.
var errPartieFinie = errors.New("partie terminée")

// session follows the twinning from a successful connection until the
// link drops.
func (s *Suiveur) session(ctx context.Context, suivi federation.Suivi, envoi map[string]bool) error {
	err := s.Site.Jumelages.Creer(ctx, fedcommand.Creer{Jumelage: suivi.Jumelage, Formule: suivi.Formule, Principal: suivi.Principal, Tournoi: s.Site.Tournoi, Sites: []string{suivi.Site}})
	if err != nil && erreur.CodeOf(err) != federation.CodeAlreadyExists {
		return err
	}
	if err := s.copie(ctx, suivi); err != nil {
		return err
	}
	// The link is back: the cut noted here, by this process or one that
	// stopped during it, ends.
	j, err := s.Site.Jumelages.Jumelages.Charger(ctx, suivi.Jumelage)
	if err != nil {
		return err
	}
	if j.EnCoupure(suivi.Site) {
		if err := s.Site.Jumelages.Retablir(ctx, fedcommand.Retablir{Jumelage: suivi.Jumelage, Site: suivi.Site, Instant: eventstore.ReadClock(s.Site.Horloge)}); err != nil {
			return err
		}
	}
	if len(suivi.Parties) == 0 {
		return errors.New("aucune partie au tournoi du principal")
	}
	for _, partie := range suivi.Parties {
		if err := s.rattraper(ctx, suivi, partie); err != nil {
			return err
		}
		if !envoi[partie] {
			envoi[partie] = true
			go s.renvoyer(ctx, suivi, partie)
		}
	}
	courante := suivi.Parties[len(suivi.Parties)-1]
	err = s.Principal.Ecouter(ctx, courante, func() error {
		if err := s.rattraper(ctx, suivi, courante); err != nil {
			return err
		}
		if s.terminee(ctx, courante) {
			return errPartieFinie
		}
		return nil
	})
	var refus *RejeuRefuse
	if ctx.Err() == nil && !errors.As(err, &refus) && !s.terminee(ctx, courante) {
		if err := s.Site.Jumelages.Couper(ctx, fedcommand.Couper{Jumelage: suivi.Jumelage, Site: suivi.Site, Partie: courante, Instant: eventstore.ReadClock(s.Site.Horloge)}); err != nil {
			s.Log.Error("coupure non notée", "partie", courante, "erreur", err)
		}
	}
	return err
}

// copie refuses a twinning the principal names unless the site's copy of
// it is the link's own, as the site's stored events tell: created by the
// link for the site's tournament. A twinning the site leads itself, or any
// other of its store, the link never records a cut or a return in.
func (s *Suiveur) copie(ctx context.Context, suivi federation.Suivi) error {
	stream, err := streamname.JumelageStream(suivi.Jumelage)
	if err != nil {
		return err
	}
	premier, err := s.Site.Journal.ReadStream(ctx, stream, 0, 1) // who created it
	if err != nil {
		return err
	}
	j, err := s.Site.Jumelages.Jumelages.Charger(ctx, suivi.Jumelage)
	if err != nil {
		return err
	}
	if len(premier) == 0 || premier[0].Metadata.Actor != Acteur || j.Tournoi() != s.Site.Tournoi {
		return erreur.Refus(erreur.CodeForbidden, "le principal nomme le jumelage %s, qui n'est pas la copie du jumelage que la liaison a créée pour le tournoi %s : "+
			"la liaison n'y note rien", suivi.Jumelage, s.Site.Tournoi)
	}
	return nil
}

// terminee tells whether the site's game is over: the link may then go.
func (s *Suiveur) terminee(ctx context.Context, partie string) bool {
	stream, err := streamname.PartieStream(partie)
	if err != nil {
		return false
	}
	evts, err := eventstore.ReadWholeStream(ctx, s.Site.Journal, stream)
	return err == nil && slices.ContainsFunc(evts, func(e eventstore.Event) bool { return e.Type == duplicate.TypePartieTerminee })
}

// cle is the idempotency key of the fact at position pos of a game: where
// it came from.
func (s *Suiveur) cle(partie string, pos int) string {
	return s.prefixe(partie) + strconv.Itoa(pos)
}

func (s *Suiveur) prefixe(partie string) string { return s.Origine + "#" + partie + "@" }

// rattraper replays the game's facts after the last one replayed, unless
// the game was annulled for this centre (§2.18.1.B) or the site left the
// twinning (§2.18.2.B): its tournament goes on on its own. A game of the
// site that is not the link's own is refused before its facts are asked.
func (s *Suiveur) rattraper(ctx context.Context, suivi federation.Suivi, partie string) error {
	evts, err := s.sienne(ctx, partie)
	if err != nil {
		return err
	}
	depuis := s.depuis(partie, evts)
	faits, err := s.Principal.Faits(ctx, partie, depuis)
	if err != nil {
		return err
	}
	if j, err := s.Site.Jumelages.Jumelages.Charger(ctx, suivi.Jumelage); err != nil || j.Annulee(suivi.Site, partie) || j.Detache(suivi.Site) {
		return err
	}
	for _, f := range faits {
		if err := s.rejouer(ctx, partie, f); err != nil {
			return &RejeuRefuse{Partie: partie, Fait: f, Err: err}
		}
	}
	return nil
}

// RejeuRefuse is a fact the site's own game refused: not a cut of the
// link, the site's director must look (a lexicon not loaded, a game of the
// same id...).
type RejeuRefuse struct {
	Partie string
	Fait   federation.Fait
	Err    error
}

func (e *RejeuRefuse) Error() string {
	return fmt.Sprintf("fait %d (%s) de la partie %s refusé ici : %v", e.Fait.Position, e.Fait.Type, e.Partie, e.Err)
}

func (e *RejeuRefuse) Unwrap() error { return e.Err }

// sienne reads the site's game partie, refusing it unless it is the
// link's own, as the site's stored events tell, whatever the principal
// lists: a game the site does not hold yet (the link creates it from the
// principal's first fact), or one whose creation the link recorded from
// this principal's fact, in the site's twinned tournament. Any other game
// of the site — another tournament's, one its director created — the link
// neither writes into nor sends (docs/securite.md).
func (s *Suiveur) sienne(ctx context.Context, partie string) ([]eventstore.Event, error) {
	stream, err := streamname.PartieStream(partie)
	if err != nil {
		return nil, err
	}
	evts, err := eventstore.ReadWholeStream(ctx, s.Site.Journal, stream)
	if err != nil || len(evts) == 0 {
		return evts, err
	}
	_, parties, err := s.Site.TournoiDe(idempotency.WithCommand(ctx, idempotency.Command{}))
	if err != nil {
		return nil, err
	}
	creation := evts[0].Metadata
	if creation.Actor != Acteur || !strings.HasPrefix(creation.CausationID, s.prefixe(partie)) || !slices.Contains(parties, partie) {
		return nil, erreur.Refus(erreur.CodeForbidden, "le principal nomme la partie %s, qui n'est pas une partie que la liaison a créée au tournoi jumelé %s : "+
			"la liaison n'y écrit rien et n'en envoie rien", partie, s.Site.Tournoi)
	}
	return evts, nil
}

// depuis is the position after the last fact of the game replayed here,
// read from the site's own events of the game, evts.
func (s *Suiveur) depuis(partie string, evts []eventstore.Event) int {
	depuis := 0
	for _, e := range evts {
		if pos, ok := strings.CutPrefix(e.Metadata.CausationID, s.prefixe(partie)); ok {
			if n, err := strconv.Atoi(pos); err == nil {
				depuis = max(depuis, n+1)
			}
		}
	}
	return depuis
}

// rejouer replays one fact through the site's own commands, once: its
// idempotency key is where it came from.
func (s *Suiveur) rejouer(ctx context.Context, partie string, f federation.Fait) error {
	ctx = idempotency.WithCommand(ctx, idempotency.Command{ID: s.cle(partie, f.Position), Author: Acteur, Request: f.Type})
	app := s.Site.Parties
	switch f.Type {
	case duplicate.TypePartieCreee:
		return avec(f, func(e duplicate.PartieCreee) error { return s.creer(ctx, partie, e) })
	case duplicate.TypeTirageEffectue:
		return avec(f, func(e duplicate.TirageEffectue) error {
			return app.Tirer(ctx, dupcommand.Tirer{Partie: partie, Lettres: e.Tirees})
		})
	case duplicate.TypeTirageRejete:
		return avec(f, func(e duplicate.TirageRejete) error {
			if e.Motif == duplicate.RejetChoixDirecteur {
				return app.Rejeter(ctx, dupcommand.Rejeter{Partie: partie})
			}
			// A tirage the rules reject (§3.2, §3.6) is rejected here too.
			return app.Tirer(ctx, dupcommand.Tirer{Partie: partie, Lettres: e.Tirees})
		})
	case duplicate.TypeTopRetenu:
		return avec(f, func(e duplicate.TopRetenu) error {
			return app.RetenirTop(ctx, dupcommand.RetenirTop{Partie: partie, Ref: e.Ref, Mot: e.Mot})
		})
	case duplicate.TypeCoupAnnule:
		return avec(f, func(e duplicate.CoupAnnule) error {
			return app.AnnulerCoup(ctx, dupcommand.AnnulerCoup{Partie: partie, Motif: e.Motif})
		})
	case duplicate.TypeChronoDemarre:
		return app.DemarrerChrono(ctx, dupcommand.DemarrerChrono{Partie: partie})
	case duplicate.TypeChronoSuspendu:
		return app.SuspendreChrono(ctx, dupcommand.SuspendreChrono{Partie: partie})
	case duplicate.TypeChronoRepris:
		return app.ReprendreChrono(ctx, dupcommand.ReprendreChrono{Partie: partie})
	}
	return fmt.Errorf("fait %s inconnu", f.Type)
}

// avec decodes a fact's payload and runs f on it.
func avec[E any](f federation.Fait, run func(E) error) error {
	var e E
	if err := json.Unmarshal(f.Donnees, &e); err != nil {
		return err
	}
	return run(e)
}

// creer opens the site's own game, with the principal's configuration and
// lexicon and the site's players: its letters are those the principal
// drew, typed by the link (source directeur), and its top the principal's,
// whether or not a player of the site played it (guide §2.3 is the
// principal's). A site that does not hold the principal's list gets
// LEXICON_NOT_LOADED on the first tirage, naming the list to load.
func (s *Suiveur) creer(ctx context.Context, partie string, creee duplicate.PartieCreee) error {
	cfg := creee.Config
	cfg.Source, cfg.GraineTest, cfg.TopJoue = duplicate.SourceDirecteur, nil, false
	if err := s.Site.Tournois.AjouterPartie(ctx, tcommand.AjouterPartie{Tournoi: s.Site.Tournoi, Partie: partie}); err != nil {
		return err
	}
	joueurs, parties, err := s.Site.TournoiDe(idempotency.WithCommand(ctx, idempotency.Command{}))
	if err != nil {
		return err
	}
	return s.Site.Parties.CreerPartie(ctx, dupcommand.CreerPartie{Partie: partie, Tournoi: s.Site.Tournoi,
		Numero: slices.Index(parties, partie) + 1, Config: cfg, Joueurs: joueurs, Lexique: creee.Lexique})
}

// renvoyer sends the site's results of a game to the principal whenever
// they change (§2.18.1.C, §2.18.2.C), retrying until the principal has
// them: the key of a sending is the hash of the results, so a retry after
// a cut is recorded once.
func (s *Suiveur) renvoyer(ctx context.Context, suivi federation.Suivi, partie string) {
	envoye := ""
	for range s.Site.Changements(ctx, partie) {
		attente := s.Attente
		for ctx.Err() == nil {
			if evts, err := s.sienne(ctx, partie); err != nil || len(evts) == 0 {
				break // not the link's game, or not open here yet
			}
			paquet, resultats, err := s.Site.Paquet(ctx, suivi.Jumelage, suivi.Site, partie)
			if err != nil {
				break
			}
			lus, err := json.Marshal(resultats)
			if err != nil {
				break
			}
			somme := sha256.Sum256(lus)
			cle := "resultats-" + hex.EncodeToString(somme[:20])
			if cle == envoye {
				break
			}
			if err = s.Principal.EnvoyerResultats(ctx, paquet, cle); err == nil {
				envoye = cle
				break
			}
			s.Log.Warn("résultats non reçus par le principal", "partie", partie, "erreur", err)
			if pause(ctx, attente) != nil {
				return
			}
			attente = min(2*attente, s.AttenteMax)
		}
	}
}

// pause waits d, or less if ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
