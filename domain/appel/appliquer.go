package appel

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"errors"
	"fmt"
	"slices"
)

// Apply is the one transition function of the appeal: recording an
// event and replaying the stream both go through it. An event that does not
// fit the state is a corrupt history and is refused.
func (a *Appel) Apply(e any) error {
	if err := aggregate.Apply(&a.Base, a.appliquer, e); err != nil {
		return &erreur.Erreur{Code: CodeCorruptHistory, Message: fmt.Sprintf("événement %T incohérent avec le recours %s", e, a.id), Err: err}
	}
	return nil
}

// niveau returns the current level if it is numero and still open.
func (a *Appel) niveau(numero int) (*Niveau, error) {
	if len(a.niveaux) == 0 {
		return nil, errors.New("recours non déposé")
	}
	n := a.courant()
	switch {
	case n.Numero != numero:
		return nil, fmt.Errorf("niveau %d, le recours est au niveau %d", numero, n.Numero)
	case n.Decision != nil || n.Classe != nil:
		return nil, fmt.Errorf("niveau %d déjà clos", numero)
	}
	return n, nil
}

func (a *Appel) appliquer(e any) error {
	switch e := e.(type) {
	case AppelDepose:
		if a.Version() > 0 {
			return errors.New("recours déjà déposé")
		}
		a.id, a.objet, a.deposeLe, a.echeance = e.Appel, e.Objet, e.DeposeLe, e.Echeance
		a.flux, _ = Flux(e.Objet.Tournoi, e.Appel) // Deposer checked it; Retrouver sets an old one
		a.niveaux = []*Niveau{{Numero: NiveauCommissionArbitrage, Instance: InstanceCommissionArbitrage,
			Requerant: e.Requerant, Motif: e.Motif, Contestee: e.Contestee, Demandee: e.Demandee}}
	case CommissionComposee:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		if n.President != "" || !slices.Contains(e.Membres, e.President) {
			return errors.New("composition invalide")
		}
		n.President, n.Membres = e.President, slices.Clone(e.Membres)
	case VoteEmis:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		if !n.membre(e.Membre) || n.aVote(e.Membre) {
			return fmt.Errorf("vote de %s refusé", e.Membre)
		}
		n.Votes = append(n.Votes, Vote{Membre: e.Membre, Issue: e.Issue})
	case DecisionRendue:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		if n.President == "" {
			return errors.New("décision sans commission")
		}
		d := e
		d.Votes = slices.Clone(e.Votes)
		n.Decision = &d
	case DecisionAppliquee:
		if e.Niveau < 1 || e.Niveau > len(a.niveaux) || a.niveaux[e.Niveau-1].Decision == nil {
			return fmt.Errorf("niveau %d sans décision", e.Niveau)
		}
		a.niveaux[e.Niveau-1].Appliquee = true
	case RecoursFISFForme:
		if len(a.niveaux) != NiveauCommissionArbitrage || a.courant().Decision == nil || e.Niveau != NiveauRecoursFISF {
			return errors.New("recours FISF sans décision de la commission d'arbitrage")
		}
		bas := a.courant()
		contestee, _ := a.DecisionEnVigueur()
		if contestee == nil {
			contestee = bas.Contestee
		}
		demandee := e.Demandee
		if demandee == nil {
			demandee = bas.Demandee
		}
		a.niveaux = append(a.niveaux, &Niveau{Numero: NiveauRecoursFISF, Instance: InstanceRecoursFISF,
			Requerant: e.Requerant, Motif: e.Motif, Contestee: contestee, Demandee: demandee, TransmisPar: e.TransmisPar})
	case PiecesDemandees:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		p := e
		n.Pieces, n.Complet = &p, false
	case DossierComplete:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		if !n.piecesEnAttente() {
			return errors.New("aucune pièce attendue")
		}
		n.Complet = true
	case AppelClasse:
		n, err := a.niveau(e.Niveau)
		if err != nil {
			return err
		}
		c := e
		n.Classe = &c
	default:
		return fmt.Errorf("type d'événement %T inconnu", e)
	}
	return nil
}
