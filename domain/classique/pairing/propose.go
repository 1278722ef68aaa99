package pairing

import "arbitre/domain/erreur"

// Propose pairs one round. It validates the request and returns a coded
// *erreur.Erreur for bad input.
func Propose(req Request) (Proposal, error) {
	r, err := newRoster(req)
	if err != nil {
		return Proposal{}, err
	}
	var p Proposal
	switch req.Method {
	case Swiss:
		p, err = r.swiss()
	case InitialByCote:
		p, err = r.initialByCote()
	case RoundRobin:
		p, err = r.roundRobin(req.Round)
	case KingOfTheHill:
		p, err = r.kingOfTheHill(req.KingOfTheHillAvoidsRepeats)
	default:
		return Proposal{}, erreur.Refus(CodeUnknownMethod, "Appariement impossible : méthode %q inconnue", req.Method)
	}
	if err != nil {
		return Proposal{}, err
	}
	p.Round, p.Method = req.Round, req.Method
	return p, nil
}

// withBye removes a bye from ranked when its length is odd: the lowest-ranked
// player who never had one. It returns the remaining players and the bye.
func (r *roster) withBye(ranked []int) ([]int, PlayerID, error) {
	if len(ranked) == 0 {
		return nil, "", erreur.Refus(CodeNobodyToPair, "Appariement impossible : aucun joueur actif")
	}
	if len(ranked)%2 == 0 {
		return ranked, "", nil
	}
	pos, err := r.lowestEligibleForBye(ranked)
	if err != nil {
		return nil, "", err
	}
	rest := append(append([]int(nil), ranked[:pos]...), ranked[pos+1:]...)
	return rest, r.players[ranked[pos]].ID, nil
}
