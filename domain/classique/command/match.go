package command

import (
	"context"

	"arbitre/domain/aggregate"
	"arbitre/domain/classique/matchclassique"
	"arbitre/engine/tile"
)

// The use cases of a match: every move, the end, the feuille de match.

// surMatch runs one command on a match (aggregate.Run).
func (a *Application) surMatch(ctx context.Context, id string, commande func(*matchclassique.Match) error) error {
	_, err := aggregate.Run(ctx, a.matchs, id, a.metadata, commande)
	return err
}

// auHasard draws n letters from the match's bag as a player would: the
// electronic bag, from the source the Hasard gives for this match at its
// version.
func (a *Application) auHasard(p *matchclassique.Match, n int) string {
	return matchclassique.TirerAuHasard(p.Sac(), n, a.hasard.Source(p.ID(), p.Version()))
}

// TirerLettres records the letters a player draws (§3.2.2, §4.1.4); with
// Lettres empty the electronic bag draws them.
type TirerLettres struct {
	Match   string
	Joueur  string
	Lettres string
}

// TirerLettres handles TirerLettres.
func (a *Application) TirerLettres(ctx context.Context, c TirerLettres) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error {
		if c.Lettres == "" {
			_, n := p.TirageDu()
			return p.Tirer(c.Joueur, a.auHasard(p, n))
		}
		return p.Tirer(c.Joueur, c.Lettres)
	})
}

// PlacerMot records a word placed (§4.1).
type PlacerMot struct {
	Match     string
	Joueur    string
	Reference string
	Mot       string
}

// PlacerMot handles PlacerMot.
func (a *Application) PlacerMot(ctx context.Context, c PlacerMot) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.PlacerMot(c.Joueur, c.Reference, c.Mot) })
}

// Passer records a pass (§4.2).
type Passer struct {
	Match  string
	Joueur string
}

// Passer handles Passer.
func (a *Application) Passer(ctx context.Context, c Passer) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.Passer(c.Joueur) })
}

// Echanger records an exchange (§4.3); with Tirees empty the electronic bag
// draws as many letters as the player puts back.
type Echanger struct {
	Match    string
	Joueur   string
	Rejetees string
	Tirees   string
}

// Echanger handles Echanger.
func (a *Application) Echanger(ctx context.Context, c Echanger) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error {
		if out, err := tile.ParseRack(c.Rejetees); err == nil && c.Tirees == "" {
			return p.Echanger(c.Joueur, c.Rejetees, a.auHasard(p, out.Size()))
		}
		return p.Echanger(c.Joueur, c.Rejetees, c.Tirees)
	})
}

// Contester records the contestation of the last play (§5).
type Contester struct {
	Match  string
	Joueur string
	Mots   []string
}

// Contester handles Contester.
func (a *Application) Contester(ctx context.Context, c Contester) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.Contester(c.Joueur, c.Mots) })
}

// Cloturer closes a game whose reliquat is exhausted (§7).
type Cloturer struct {
	Match  string
	Joueur string
}

// Cloturer handles Cloturer.
func (a *Application) Cloturer(ctx context.Context, c Cloturer) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.Cloturer(c.Joueur) })
}

// ConstaterBlocage ends a blocked game (§7).
type ConstaterBlocage struct {
	Match string
}

// ConstaterBlocage handles ConstaterBlocage.
func (a *Application) ConstaterBlocage(ctx context.Context, c ConstaterBlocage) error {
	return a.surMatch(ctx, c.Match, (*matchclassique.Match).ConstaterBlocage)
}

// DeclarerTempsEpuise records that a player's time is out (§6, §7).
type DeclarerTempsEpuise struct {
	Match  string
	Joueur string
}

// DeclarerTempsEpuise handles DeclarerTempsEpuise.
func (a *Application) DeclarerTempsEpuise(ctx context.Context, c DeclarerTempsEpuise) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.DeclarerTempsEpuise(c.Joueur) })
}

// Penaliser records a penalty (§4.1.3, §8, §9); Lettres counts the letters
// of a per-letter penalty.
type Penaliser struct {
	Match   string
	Joueur  string
	Motif   matchclassique.Motif
	Lettres int
}

// Penaliser handles Penaliser.
func (a *Application) Penaliser(ctx context.Context, c Penaliser) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.Penaliser(c.Joueur, c.Motif, c.Lettres) })
}

// DemanderAbandon records a player's request to abandon (§9).
type DemanderAbandon struct {
	Match  string
	Joueur string
}

// DemanderAbandon handles DemanderAbandon.
func (a *Application) DemanderAbandon(ctx context.Context, c DemanderAbandon) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.DemanderAbandon(c.Joueur) })
}

// RepondreAbandon records the opponent's answer to an abandon (§9).
type RepondreAbandon struct {
	Match   string
	Joueur  string
	Accepte bool
}

// RepondreAbandon handles RepondreAbandon.
func (a *Application) RepondreAbandon(ctx context.Context, c RepondreAbandon) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.RepondreAbandon(c.Joueur, c.Accepte) })
}

// ConstaterAbandon records a unilateral abandon (§9).
type ConstaterAbandon struct {
	Match  string
	Joueur string
}

// ConstaterAbandon handles ConstaterAbandon.
func (a *Application) ConstaterAbandon(ctx context.Context, c ConstaterAbandon) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.ConstaterAbandon(c.Joueur) })
}

// DeclarerDefaite records a defeat by the arbiter's decision (§9).
type DeclarerDefaite struct {
	Match       string
	Joueur      string
	HuitLettres bool
}

// DeclarerDefaite handles DeclarerDefaite.
func (a *Application) DeclarerDefaite(ctx context.Context, c DeclarerDefaite) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.DeclarerDefaite(c.Joueur, c.HuitLettres) })
}

// DeclarerForfait records the forfeit of an absent player (§9).
type DeclarerForfait struct {
	Match  string
	Joueur string
}

// DeclarerForfait handles DeclarerForfait.
func (a *Application) DeclarerForfait(ctx context.Context, c DeclarerForfait) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.DeclarerForfait(c.Joueur) })
}

// SignerFeuille records a player's signature of the feuille de match with
// the scores he reads (§2.1.5).
type SignerFeuille struct {
	Match  string
	Joueur string
	Scores [2]int
}

// SignerFeuille handles SignerFeuille.
func (a *Application) SignerFeuille(ctx context.Context, c SignerFeuille) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.SignerFeuille(c.Joueur, c.Scores) })
}

// TrancherDesaccord records the arbiter's scores when the players disagree
// (§7).
type TrancherDesaccord struct {
	Match  string
	Scores [2]int
}

// TrancherDesaccord handles TrancherDesaccord.
func (a *Application) TrancherDesaccord(ctx context.Context, c TrancherDesaccord) error {
	return a.surMatch(ctx, c.Match, func(p *matchclassique.Match) error { return p.TrancherDesaccord(c.Scores) })
}
